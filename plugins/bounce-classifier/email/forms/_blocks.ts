import { bareAddress } from '../reply.ts';

/**
 * A line that ends the last block: a separator, the quoted original message, or the report's fields (a notice
 * forwarded inline has its status part as text after it)
 */
const BLOCK_END =
  /^-{3,}|^\s*-{2,}\s*(?:Below this line|Original message|The header)|^\s*(?:Reporting-MTA|Final-Recipient)\s*:/i;

/** Lines of a text grouped under the `<address>:` lines that open them (qmail, Yahoo, Courier, Postfix) */
export function addressBlocks(
  text: string,
  opener = /^[ \t]{0,8}<([^<>\s@]{1,64}@[^<>\s@]{1,255})>:?(.*)$/,
): { address: string; lines: string[] }[] {
  const blocks: { address: string; lines: string[] }[] = [];
  for (const line of text.split(/\r?\n/)) {
    const match = opener.exec(line);
    if (match) {
      blocks.push({ address: bareAddress(match[1]!), lines: match[2]!.trim() === '' ? [] : [match[2]!.trim()] });
      continue;
    }
    if (BLOCK_END.test(line)) {
      if (blocks.length > 0) blocks.push({ address: '', lines: [] });
      continue;
    }
    blocks.at(-1)?.lines.push(line);
  }
  return blocks.filter((b) => b.address !== '');
}
