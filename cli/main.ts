#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { VIRTGATE_VERSION } from '../core/package-info.ts';
import { agentCommand } from './commands/agent.ts';
import { aggregatorCommand } from './commands/aggregator.ts';
import { checkCommand } from './commands/check.ts';
import { gateCommand } from './commands/gate.ts';
import { pruneCommand } from './commands/prune.ts';
import { tupleCommand } from './commands/tuple.ts';
import { EXIT, UsageError } from './usage-error.ts';

/** Parse errors as one line: commander puts "(Did you mean --json?)" on a line of its own. */
const ONE_LINE_ERRORS = {
  outputError: (message: string, write: (text: string) => void) => write(`${message.trim().split('\n').join(' ')}\n`),
};

function buildProgram(): Command {
  const program = new Command('virtgate')
    .description('Which nodes can really run KubeVirt VMs, and is this cluster ready for them?')
    .version(VIRTGATE_VERSION)
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput(ONE_LINE_ERRORS);
  program.addCommand(checkCommand());
  program.addCommand(tupleCommand());
  program.addCommand(agentCommand());
  program.addCommand(aggregatorCommand());
  program.addCommand(gateCommand());
  program.addCommand(pruneCommand());
  // addCommand() does not pass settings down, so each subcommand gets them here.
  for (const command of program.commands) command.exitOverride().configureOutput(ONE_LINE_ERRORS);
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
