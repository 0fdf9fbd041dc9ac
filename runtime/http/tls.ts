import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { hostErrors } from '../core/host-errors.ts';
import type { TlsMaterial } from './listen.ts';

type Source = { data?: string; path?: string };
/** A `pki.private[]` entry */
export interface PrivateKeySpec {
  id: string;
  privatekey: Source;
  certificate?: Source;
}

async function pem(
  source: Source,
  baseDir: string,
  unreadable: (path: string, detail: string) => Error,
): Promise<string> {
  if (source.data !== undefined) return source.data;
  const path = resolve(baseDir, source.path as string);
  return readFile(path, 'utf8').catch((error: Error) => {
    throw unreadable(path, error.message);
  });
}

/** The key of an https server: the `pki.private[]` entry whose id is the server's, or the only one */
export async function tlsFor(serverId: string, keys: readonly PrivateKeySpec[], baseDir: string): Promise<TlsMaterial> {
  const entry = keys.find((k) => k.id === serverId) ?? (keys.length === 1 ? keys[0] : undefined);
  if (!entry) {
    const why =
      keys.length === 0
        ? '"pki.private" is empty'
        : `"pki.private" has ${keys.length} keys and none has id "${serverId}"`;
    throw hostErrors.HOST_ERR_TLS_KEY(serverId, why);
  }
  if (!entry.certificate) throw hostErrors.HOST_ERR_TLS_NO_CERTIFICATE(serverId, entry.id);
  const [key, cert] = await Promise.all([
    pem(entry.privatekey, baseDir, hostErrors.HOST_ERR_TLS_READ_KEY),
    pem(entry.certificate, baseDir, hostErrors.HOST_ERR_TLS_READ_CERTIFICATE),
  ]);
  return { key, cert };
}
