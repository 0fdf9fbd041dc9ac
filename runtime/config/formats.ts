import Format from 'typebox/format';

/**
 * The string formats Capstan's schemas use beyond JSON Schema's own, registered with TypeBox once per process. Both
 * the linter and the plugin loader compile schemas through TypeBox, so `capstan config check` and `capstan serve`
 * accept the same values. Importing this module registers them.
 */
const FORMATS: Record<string, (value: string) => boolean> = {
  // An IANA time zone name that Intl knows (schedule days are counted in it)
  'time-zone': (value) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: value });
      return true;
    } catch {
      return false;
    }
  },
};

for (const [name, check] of Object.entries(FORMATS)) Format.Set(name, check);

/** Whether a string has a format; an unknown format accepts every string, as JSON Schema says */
export function hasFormat(format: string, value: string): boolean {
  return Format.Test(format, value);
}
