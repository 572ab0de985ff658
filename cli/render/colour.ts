import { styleText } from 'node:util';
import type { CheckStatus } from '../../core/checks/outcome.ts';

type Style = Parameters<typeof styleText>[0];

const STATUS_STYLE: Record<CheckStatus, Style> = {
  pass: 'green',
  warn: 'yellow',
  fail: 'red',
  skip: 'gray',
  error: 'magenta',
};

/** Colours only when the stream is a TTY and NO_COLOR / FORCE_COLOR allow it (styleText decides). */
export function paint(style: Style, text: string, stream: NodeJS.WriteStream = process.stdout): string {
  return styleText(style, text, { stream });
}

export function paintStatus(status: CheckStatus, text: string, stream?: NodeJS.WriteStream): string {
  return paint(STATUS_STYLE[status], text, stream);
}
