// `install`, `check`, `uninstall` and `hook` (R20, R21, R26) as CLI commands.
import { HOOK_NAMES, type HookName } from '../hooks/io.ts'
import { runHook } from '../hooks/run.ts'
import type { HostEnvironment } from '../host/env.ts'
import {
  check,
  formatItem,
  type InstallerReport,
  install,
  statusLine,
  uninstall,
} from '../install/installer.ts'
import type { InstallTarget } from '../install/targets.ts'
import type { ParsedArgs } from './args.ts'
import { usageError } from './errors.ts'
import type { CommandResult } from './result.ts'

function targetOf(args: ParsedArgs): InstallTarget {
  const target = args.positionals[0] ?? 'claude'
  if (target === 'claude' || target === 'codex') return target
  throw usageError(`Unknown target "${target}" (expected claude or codex)`)
}

function toResult(report: InstallerReport, withStatus: boolean): CommandResult {
  const lines = report.items.map(formatItem)
  if (withStatus) lines.push(statusLine(report.items))
  return {
    lines,
    data: { target: report.target, configPath: report.configPath, base: report.base, items: report.items },
    exitCode: report.exitCode,
    ok: report.exitCode === 0,
  }
}

export const installCommand = (e: HostEnvironment, args: ParsedArgs) =>
  toResult(install(targetOf(args), e), false)
export const checkCommand = (e: HostEnvironment, args: ParsedArgs) => toResult(check(targetOf(args), e), true)
export const uninstallCommand = (e: HostEnvironment, args: ParsedArgs) =>
  toResult(uninstall(targetOf(args), e, args.booleans.has('--purge-data')), false)

/** Runs a hook with this process's stdin; its stdout/stderr and exit code are the hook's own. */
export async function hookCommand(
  e: HostEnvironment,
  args: ParsedArgs,
  stdin: () => string,
): Promise<CommandResult> {
  const name = args.positionals[0]
  if (!name || !(HOOK_NAMES as readonly string[]).includes(name)) {
    throw usageError(`Unknown hook "${name ?? ''}" (expected ${HOOK_NAMES.join(', ')})`)
  }
  let stdout = ''
  let stderr = ''
  const exitCode = await runHook(name as HookName, {
    ...e,
    stdin: stdin(),
    stdout: (text) => {
      stdout += text
    },
    stderr: (text) => {
      stderr += text
    },
  })
  return {
    lines: [],
    stdoutText: stdout,
    stderrText: stderr,
    data: { hook: name, exitCode, stdout, stderr },
    exitCode,
  }
}
