/**
 * Fast reading of the timestamps logs write ("2025-03-10 12:00:01", "2025-03-10T12:00:01.5+01:00", "…-0000"): a
 * busy log has a new second every line, and Date.parse of each costs more than the rest of the line's parsing. The
 * date part's midnight is kept; the time of day and the zone are arithmetic.
 */
const STAMP_RE = /^(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(\.\d+)?\s*(Z|[-+]\d\d:?\d\d)?$/;

/** Epoch ms of a timestamp of that shape (no zone: UTC), NaN when it has another */
export function stampTime(): (stamp: string) => number {
  let day = '';
  let midnight = NaN;
  return (stamp) => {
    const m = STAMP_RE.exec(stamp);
    if (!m) return NaN;
    const date = stamp.slice(0, 10);
    if (date !== day) {
      day = date;
      midnight = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
    }
    const zone = m[8];
    const offset =
      !zone || zone === 'Z'
        ? 0
        : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2))) * 60_000;
    const fraction = m[7] ? Math.round(Number(m[7]) * 1000) : 0;
    return midnight + ((Number(m[4]) * 60 + Number(m[5])) * 60 + Number(m[6])) * 1000 + fraction - offset;
  };
}
