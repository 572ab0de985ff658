/**
 * The `virtgate …` command lines the user docs show in their code blocks, read the way a shell
 * would read them, so that a test can run each one (scripts/docs-commands.test.ts).
 */
import { COMMAND_NAMES } from '../cli/exit-codes.ts';

export interface DocumentedCommand {
  file: string;
  /** 1-based line of the command in the file. */
  line: number;
  /** The line as written (continuations joined). */
  text: string;
  /** The words after `virtgate`, up to a pipe or a comment. */
  args: string[];
  /** The exit code the docs show for it, from an output line such as `Result: WARN (exit 3)`. */
  shownExit?: number;
}

const COMMAND = /^(?:\$ )?virtgate(?:\s|$)/;
/** Output that starts like a command: `virtgate tuple: KubeVirt 1.9, …`. */
const OUTPUT = /^(?:\$ )?virtgate [a-z-]+:/;
const SHOWN_EXIT = /\(exit (\d+)\)/;

/**
 * A command runs a subcommand, or the program with a flag (`virtgate --version`); other lines that
 * start with the word are output (`virtgate fault suite summary`, `virtgate tuple: KubeVirt …`).
 */
function isCommand(line: string): boolean {
  if (!COMMAND.test(line) || OUTPUT.test(line)) return false;
  const next = line.replace(/^\$ /, '').split(/\s+/)[1];
  return next === undefined || next === '' || next.startsWith('-') || (COMMAND_NAMES as string[]).includes(next);
}

/**
 * Shell words of one line: quotes respected, `~/` expanded to `home`, a `#` comment and anything
 * after a pipe, `;` or `&&` dropped (what follows is another program).
 */
export function shellWords(line: string, home: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  for (let index = 0; index < line.length; index++) {
    const char = line[index] as string;
    if (quote) {
      if (char === quote) quote = undefined;
      else word = (word ?? '') + char;
      continue;
    }
    if (char === '"' || char === "'") {
      quote = char;
      word ??= '';
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if ((char === '#' && word === undefined) || char === '|' || char === ';' || (char === '&' && line[index + 1] === '&')) {
      break;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (quote) throw new Error(`unterminated ${quote} in: ${line}`);
  if (word !== undefined) words.push(word);
  return words.map((each) => (each === '~' ? home : each.startsWith('~/') ? `${home}${each.slice(1)}` : each));
}

/**
 * Every `virtgate …` line in the fenced code blocks of a Markdown text, except the synopses
 * between `<!-- generated:synopsis … -->` markers (made from the definitions, and not runnable).
 */
export function documentedCommands(file: string, text: string, home: string, substitutions: Readonly<Record<string, string>> = {}): DocumentedCommand[] {
  const lines = text.split('\n');
  const found: DocumentedCommand[] = [];
  let fenced = false;
  let synopsis = false;
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index] as string;
    if (raw.startsWith('<!-- generated:synopsis')) synopsis = true;
    if (raw.startsWith('<!-- /generated:synopsis')) synopsis = false;
    if (/^\s*```/.test(raw)) {
      fenced = !fenced;
      continue;
    }
    if (!fenced || synopsis || !isCommand(raw)) continue;
    let joined = raw;
    const first = index;
    while (joined.endsWith('\\') && index + 1 < lines.length) joined = `${joined.slice(0, -1)} ${lines[++index]}`;
    let substituted = joined;
    for (const [written, value] of Object.entries(substitutions)) substituted = substituted.split(written).join(value);
    const words = shellWords(substituted.replace(/^\$ /, ''), home);
    const command: DocumentedCommand = { file, line: first + 1, text: joined, args: words.slice(1) };
    // The output shown after a `$ ` command, up to the end of the block or the next command.
    if (joined.startsWith('$ ')) {
      for (let after = index + 1; after < lines.length && !/^\s*```/.test(lines[after] as string) && !isCommand(lines[after] as string); after++) {
        const exit = SHOWN_EXIT.exec(lines[after] as string);
        if (exit) command.shownExit = Number(exit[1]);
      }
    }
    found.push(command);
  }
  return found;
}
