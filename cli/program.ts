/** The virtgate command line: one subcommand per program, each loaded only when it runs. */
import { Command, CommanderError } from 'commander';
import { VIRTGATE_VERSION } from '../core/package-info.ts';
import { ERROR_PREFIX } from './exit-codes.ts';
import { programName } from './program-name.ts';
import { ClusterUnreachableError, EXIT, UsageError } from './usage-error.ts';

/**
 * Parse errors as one line with the prefix of every other error line: commander starts them with
 * "error: " and puts "(Did you mean --json?)" on a line of its own.
 */
const ONE_LINE_ERRORS = {
  outputError: (message: string, write: (text: string) => void) => write(`${ERROR_PREFIX}${message.trim().replace(/^error: /, '').split('\n').join(' ')}\n`),
};

/**
 * Each subcommand is imported only when it runs: the cluster commands load
 * @kubernetes/client-node, which would more than double `virtgate check`'s start-up time and memory.
 */
const COMMANDS: Record<string, () => Promise<Command>> = {
  check: async () => (await import('./commands/check.ts')).checkCommand(),
  tuple: async () => (await import('./commands/tuple.ts')).tupleCommand(),
  agent: async () => (await import('./commands/agent.ts')).agentCommand(),
  aggregator: async () => (await import('./commands/aggregator.ts')).aggregatorCommand(),
  gate: async () => (await import('./commands/gate.ts')).gateCommand(),
  prune: async () => (await import('./commands/prune.ts')).pruneCommand(),
  canary: async () => (await import('./commands/canary.ts')).canaryCommand(),
  explain: async () => (await import('./commands/explain.ts')).explainCommand(),
};

async function buildProgram(argv: string[]): Promise<Command> {
  // argv[1] is the script as run: `kubectl-virtgate` when kubectl runs it as a plugin.
  const program = new Command(programName(argv[1]))
    .description('Which nodes can really run KubeVirt VMs, and is this cluster ready for them?')
    .version(VIRTGATE_VERSION)
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput(ONE_LINE_ERRORS);
  const requested = argv[2];
  // `virtgate --help`, a typo (for "did you mean"), or no command at all: load them all.
  const names = requested !== undefined && Object.hasOwn(COMMANDS, requested) ? [requested] : Object.keys(COMMANDS);
  for (const name of names) {
    const load = COMMANDS[name];
    if (load) program.addCommand(await load());
  }
  // addCommand() does not pass settings down, so each subcommand gets them here.
  for (const command of program.commands) command.exitOverride().configureOutput(ONE_LINE_ERRORS);
  return program;
}

/**
 * Messages from libraries can span lines (the YAML parser appends a code frame to a kubeconfig
 * that is not YAML); the promise is one line on stderr, and the first line says what is wrong.
 */
function firstLine(message: string): string {
  return message.split('\n').find((line) => line.trim() !== '')?.trim() ?? message;
}

/**
 * A reader that stops early (`virtgate check --help | head -1`) closes the pipe; the next write
 * fails with EPIPE. Like standard tools, stop quietly and successfully instead of printing an
 * unhandled 'error' event: nobody is left to read the rest.
 */
function exitQuietlyWhenTheReaderLeaves(): void {
  const onError = (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(EXIT.ok);
  };
  // Attached when something first uses process.stdout: building it loads the streams stack
  // (3.5 ms), which `check` skips by writing to the descriptor (cli/stdout.ts).
  const builtin = Object.getOwnPropertyDescriptor(process, 'stdout');
  const build = builtin?.get;
  if (!builtin?.configurable || !build) {
    process.stdout.on('error', onError);
    return;
  }
  Object.defineProperty(process, 'stdout', {
    configurable: true,
    enumerable: builtin.enumerable ?? true,
    get() {
      const stream = build.call(process) as NodeJS.WriteStream;
      Object.defineProperty(process, 'stdout', { configurable: true, enumerable: builtin.enumerable ?? true, get: () => stream });
      stream.on('error', onError);
      return stream;
    },
  });
}

export async function main(argv: string[]): Promise<void> {
  exitQuietlyWhenTheReaderLeaves();
  try {
    const program = await buildProgram(argv);
    // Commander answers the root's --help before it looks at the command, so `virtgate explian
    // --help` would print the root help and exit 0: a mistyped command is parsed alone, to fail.
    const requested = argv[2];
    const mistyped = requested !== undefined && !requested.startsWith('-') && requested !== 'help' && !Object.hasOwn(COMMANDS, requested);
    await program.parseAsync(mistyped ? argv.slice(0, 3) : argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit 0; every parse error has already been printed as one line.
      process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
      return;
    }
    if (error instanceof ClusterUnreachableError) {
      process.stderr.write(`${ERROR_PREFIX}${firstLine(error.message)}\n`);
      process.exitCode = EXIT.cluster;
      return;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`${ERROR_PREFIX}${firstLine(error.message)}\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    process.stderr.write(`${ERROR_PREFIX}internal error: ${firstLine(error instanceof Error ? error.message : String(error))}\n`);
    if (process.env.VIRTGATE_DEBUG) console.error(error);
    process.exitCode = EXIT.usage;
  }
}

