// A real kernel for permission tests: the tool registry and pipeline, the fs tools, a recording
// `bash` and an unknown `deploy` tool, the permissions plugin, and optionally an approver. A
// listener registered before the plugin observes the decision the plugin hands up the chain.
import { mountApprover, stubAgent as toolsStubAgent } from '@tack/tools/testing'
import { mkdtemp, realpath, symlink, writeFile, mkdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ToolAgent } from '@tack/tools'
import { type FsToolsConfig, FsToolsPlugin } from '@tack/tool-fs'
import {
  type ApprovalAnswer,
  type ApprovalRequest,
  defineTool,
  type PreToolDecision,
  registerTool,
  type ToolExecutionResult,
  ToolsPlugin,
} from '@tack/tools'
import { memorySession } from '@tack/session/testing'
import { Context, type ConfigInput } from '@tack/kernel'
import { type PermissionsConfig, PermissionsPlugin } from '../src/index.ts'

export interface Kernel {
  readonly ctx: Context
  /** Decisions the permissions plugin returned, in call order. */
  readonly decisions: PreToolDecision[]
  /** Approval requests the approver received (empty when none is mounted). */
  readonly requests: ApprovalRequest[]
  /** Commands the test `bash` tool ran. */
  readonly commands: string[]
  /** Calls of the unknown `deploy` tool that ran. */
  readonly deploys: number[]
}

export interface KernelOptions {
  readonly config?: ConfigInput<typeof PermissionsConfig>
  /** Mounts an approver answering this (default: none mounted, as headless). */
  readonly approver?: ApprovalAnswer
  /** Extra pre-execute listeners registered after the plugin (downstream of it). */
  readonly downstream?: (ctx: Context) => void
  /** The fs tools' Config (default: their defaults). */
  readonly fs?: ConfigInput<typeof FsToolsConfig>
}

export async function kernel(options: KernelOptions = {}): Promise<Kernel> {
  const ctx = new Context()
  const decisions: PreToolDecision[] = []
  const commands: string[] = []
  const deploys: number[] = []
  await ctx.plugin(ToolsPlugin, {})
  await ctx.plugin(FsToolsPlugin, options.fs ?? {})
  registerTool(
    ctx,
    defineTool({
      name: 'bash',
      // Judged by its declaration, as the real bash is: the plugin knows no tool by name.
      access: 'execute',
      description: 'Records the command instead of running it.',
      parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
      execute: (args) => {
        commands.push(args.command)
        return `ran ${args.command}`
      },
    }),
  )
  registerTool(
    ctx,
    defineTool({
      name: 'deploy',
      description: 'A plugin tool the permission plugin does not know.',
      parameters: { type: 'object', properties: {} },
      execute: () => {
        deploys.push(deploys.length + 1)
        return 'deployed'
      },
    }),
  )
  // Upstream of the permission plugin by its phase (packages/tools/src/seams.ts), as a hook bridge is.
  ctx.on(
    'tools/pre-execute',
    async (_exec, next) => {
      const decision = await next()
      decisions.push(decision)
      return decision
    },
    { phase: 'hooks' },
  )
  await ctx.plugin(PermissionsPlugin, options.config ?? {})
  options.downstream?.(ctx)
  const requests = options.approver ? await mountApprover(ctx, options.approver) : []
  return { ctx, decisions, requests, commands, deploys }
}

let calls = 0

export function run(
  k: Kernel,
  name: string,
  args: unknown,
  options: { cwd: string; agent?: ToolAgent },
): Promise<ToolExecutionResult> {
  return k.ctx.tools.execute({
    callId: `call_${++calls}`,
    name,
    rawArguments: JSON.stringify(args),
    cwd: options.cwd,
    signal: new AbortController().signal,
    ...(options.agent && { agent: options.agent }),
  })
}

/** A workspace with files, and an outside folder beside it reached by an in-tree symlink. */
export async function workspace() {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'tack-perm-')))
  const cwd = join(base, 'ws')
  const outside = join(base, 'outside')
  await mkdir(join(cwd, 'src'), { recursive: true })
  await mkdir(join(cwd, 'secrets'), { recursive: true })
  await mkdir(outside, { recursive: true })
  await writeFile(join(cwd, 'src', 'a.ts'), 'const a = 1\n')
  await writeFile(join(cwd, 'secrets', 'key.txt'), 'k\n')
  await writeFile(join(outside, 'notes.txt'), 'outside notes\n')
  await symlink(outside, join(cwd, 'link'))
  await symlink(join(cwd, 'src'), join(cwd, 'src-link'))
  return { cwd, outside }
}

/** The agent a call carries (the plugin reads `options`, `cwd` and `session`); the loop is in loop.test.ts. */
export function stubAgent(cwd: string, options: ToolAgent['options'] = {}): ToolAgent {
  return toolsStubAgent(memorySession(cwd), { cwd, options })
}
