#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { VIRTGATE_VERSION } from '../core/package-info.ts';
import { checkCommand } from './commands/check.ts';
import { EXIT, UsageError } from './usage-error.ts';

function buildProgram(): Command {
  const program = new Command('virtgate')
    .description('Which nodes can really run KubeVirt VMs, and is this cluster ready for them?')
    .version(VIRTGATE_VERSION)
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ outputError: (message, write) => write(message.split('\n')[0] + '\n') });
  program.addCommand(checkCommand());
  for (const command of program.commands) command.exitOverride();
  return program;
}

async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; every parse error has already been printed as one line.
      process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
      return;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`virtgate: ${error.message}\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    process.stderr.write(`virtgate: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    if (process.env.VIRTGATE_DEBUG) console.error(error);
    process.exitCode = EXIT.usage;
  }
}

await main(process.argv);
