import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { CapstanError } from './errors.ts';
import type { TlsMaterial } from './listen.ts';

type Source = { data?: string; path?: string };
/** A `pki.private[]` entry */
export interface PrivateKeySpec {
  id: string;
  privatekey: Source;
  certificate?: Source;
}

async function pem(source: Source, baseDir: string, what: string): Promise<string> {
  if (source.data !== undefined) return source.data;
  const path = resolve(baseDir, source.path as string);
  return readFile(path, 'utf8').catch((error: Error) => {
    throw new CapstanError('HOST_ERR_TLS_KEY', `Cannot read ${what} "${path}": ${error.message}`);
  });
}

/** The key of an https server: the `pki.private[]` entry whose id is the server's, or the only one */
export async function tlsFor(serverId: string, keys: readonly PrivateKeySpec[], baseDir: string): Promise<TlsMaterial> {
  const entry = keys.find((k) => k.id === serverId) ?? (keys.length === 1 ? keys[0] : undefined);
  if (!entry) {
    const why = keys.length === 0 ? '"pki.private" is empty' : `"pki.private" has ${keys.length} keys and none has id "${serverId}"`;
    throw new CapstanError('HOST_ERR_TLS_KEY', `Cannot serve https server "${serverId}": ${why}`);
  }
  if (!entry.certificate) throw new CapstanError('HOST_ERR_TLS_KEY', `Cannot serve https server "${serverId}": key "${entry.id}" has no certificate`);
  const [key, cert] = await Promise.all([pem(entry.privatekey, baseDir, 'private key'), pem(entry.certificate, baseDir, 'certificate')]);
  return { key, cert };
}
