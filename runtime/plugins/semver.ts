type Triple = [number, number, number];

function parse(version: string): Triple | undefined {
  const m = /^v?(\d+)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?$/.exec(version.trim());
  if (!m) return undefined;
  const n = (s: string | undefined) => (s === undefined || s === 'x' || s === '*' ? 0 : Number(s));
  return [n(m[1]), n(m[2]), n(m[3])];
}

function compare(a: Triple, b: Triple): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

function satisfiesComparator(v: Triple, comparator: string): boolean {
  const m = /^(\^|~|>=|<=|>|<|=)?\s*(.+)$/.exec(comparator);
  const base = m && parse(m[2]);
  if (!m || !base) throw new Error(`Invalid version range "${comparator}"`);
  switch (m[1]) {
    case '^': {
      const upper: Triple = base[0] > 0 ? [base[0] + 1, 0, 0] : base[1] > 0 ? [0, base[1] + 1, 0] : [0, 0, base[2] + 1];
      return compare(v, base) >= 0 && compare(v, upper) < 0;
    }
    case '~':
      return compare(v, base) >= 0 && compare(v, [base[0], base[1] + 1, 0]) < 0;
    case '>=':
      return compare(v, base) >= 0;
    case '<=':
      return compare(v, base) <= 0;
    case '>':
      return compare(v, base) > 0;
    case '<':
      return compare(v, base) < 0;
    default:
      // `1`, `1.x` and `1.2` leave the missing parts free
      return m[2].split('.').every((part, i) => part === 'x' || part === '*' || Number(part) === v[i]);
  }
}

/** True when `version` satisfies the semver `range` (`^1.0.0`, `~1.2`, `>=1 <2`, `1.x`, `a || b`) */
export function satisfies(version: string, range: string): boolean {
  const v = parse(version);
  if (!v) throw new Error(`Invalid version "${version}"`);
  return range.split('||').some((set) =>
    set
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .every((c) => satisfiesComparator(v, c)),
  );
}
