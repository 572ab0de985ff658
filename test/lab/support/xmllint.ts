/**
 * A real XML parser for the JUnit report's tests: libxml2's `xmllint` (Debian `libxml2-utils`,
 * installed by .ci/run). No XML parser is an npm dependency; without xmllint the tests fail
 * saying so, they do not skip.
 */
import { execa } from 'execa';

async function xmllint(args: string[], xml: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const result = await execa('xmllint', args, { input: xml, reject: false, stripFinalNewline: false });
  if (result.failed && (result as { code?: string }).code === 'ENOENT') {
    throw new Error('xmllint not found: install Debian libxml2-utils (bash .ci/run does)');
  }
  return { code: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** The parser's complaints; empty when the document is well-formed XML. */
export async function xmlProblems(xml: string): Promise<string> {
  const { code, stderr } = await xmllint(['--noout', '-'], xml);
  return code === 0 ? '' : stderr || `xmllint exited ${code}`;
}

/** The string value of an XPath expression, as the parser reads the document (entities resolved). */
export async function xpathString(xml: string, expression: string): Promise<string> {
  const { code, stdout, stderr } = await xmllint(['--xpath', `string(${expression})`, '-'], xml);
  if (code !== 0) throw new Error(`xmllint --xpath ${expression}: ${stderr}`);
  // xmllint ends what it prints with one newline of its own.
  return stdout.endsWith('\n') ? stdout.slice(0, -1) : stdout;
}

/** The number of nodes an XPath expression selects. */
export async function xpathCount(xml: string, expression: string): Promise<number> {
  return Number(await xpathString(xml, `count(${expression})`).then((text) => text.trim()));
}
