import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

// Real documents written by operators, kept outside the repository (see its README); never copied in.
const root = fileURLToPath(new URL('../../', import.meta.url));
const folder = join(root, '../shared/real-configs/documents');
// The one document with a real mistake, which its author fixed in the next commit: a listener split in two.
const MISTAKE = {
  file: '024_halon-sink.yaml',
  line: 'servers[0].listeners[0] has "address" but no "port": a TCP listener needs "port"',
};

if (!existsSync(folder)) {
  console.log(`skipping the real documents: ${folder} is not there`);
  test.skip('config check passes every real document with version "6.10" but the one with a mistake', () => {});
} else {
  test('config check passes every real document with version "6.10" but the one with a mistake', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'capstan-real-'));
    try {
      const names = readdirSync(folder)
        .filter((name) => /\.ya?ml$/.test(name))
        .sort();
      assert.ok(names.length > 0, `no documents in ${folder}`);
      for (const name of names) {
        const text = readFileSync(join(folder, name), 'utf8').replace(/^version:.*$/m, 'version: "6.10"');
        writeFileSync(join(dir, name), text);
      }
      const out = await new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
        execFile(
          process.execPath,
          ['runtime/cli/capstan.js', 'config', 'check', ...names.map((name) => join(dir, name))],
          { cwd: root },
          (error, stdout, stderr) => {
            done({ code: error ? Number(error.code) : 0, stdout, stderr });
          },
        );
      });
      const errors = out.stdout
        .trim()
        .split('\n')
        .filter((line) => line !== '' && !/ (warning|note): /.test(line));
      assert.equal(
        errors.map((line) => line.replace(`${dir}/`, '').replace(/:\d+:\d+ /, ' ')),
        [`${MISTAKE.file} ${MISTAKE.line}`],
        out.stdout,
      );
      assert.match(out.stderr, `${names.length} files checked: ${names.length - 1} valid, 1 invalid`);
      assert.is(out.code, 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test.run();
