/** A spec file as parsed, with the path it is reported under */
export interface SpecFile {
  /** Path relative to the repository root, as errors name it */
  file: string;
  name: string;
  text: string;
  document: Record<string, any>;
}

/** A spec defect: names the file and the JSON pointer */
export class SpecError extends Error {
  constructor(file: string, pointer: string, message: string) {
    super(`${file}#${pointer}: ${message}`);
    this.name = 'SpecError';
  }
}

/** Escapes one JSON-pointer segment (RFC 6901) */
export function pointerSegment(segment: string | number): string {
  return String(segment).replaceAll('~', '~0').replaceAll('/', '~1');
}
