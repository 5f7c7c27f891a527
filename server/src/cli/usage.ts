import type { Command } from './command';

function line(command: Command): string {
  return [`doppel ${command.name}`, command.synopsis].filter(Boolean).join(' ');
}

function listing(commands: readonly Command[]): string {
  return commands.map((c) => `  ${line(c).slice('doppel '.length)}\n      ${c.summary}`).join('\n');
}

const commonOptions = `Options (every command):
  --json      Print one JSON document on stdout instead of text
  -h, --help  Show this help`;

export function overallUsage(commands: readonly Command[]): string {
  return `Usage: doppel <command> [options]

Operator commands for a Doppel installation. They use DATABASE_URL when it is set, otherwise the
embedded PostgreSQL under DOPPEL_DATA_DIR (default ./.doppel), attaching to it while the server runs.

Commands:
${listing(commands)}

${commonOptions}

Exit codes: 0 done, 1 failed (message on stderr), 2 bad usage.`;
}

export function groupUsage(group: string, commands: readonly Command[]): string {
  return `Usage: doppel ${group} <command> [options]

Commands:
${listing(commands)}

${commonOptions}`;
}

export function commandUsage(command: Command): string {
  return `Usage: ${line(command)} [--json]

${command.summary}.`;
}
