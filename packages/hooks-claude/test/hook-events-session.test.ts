// The session-moment events (claude-code-hook-events.md): SessionEnd, StopFailure, PreCompact and
// PostCompact, Notification, InstructionsLoaded, PreModelSwitch and PostModelSwitch — each on its seam
// (docs/decisions/0170-hook-event-seams.md). Real loop, real hook scripts, scripted models.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { switchAgentModel } from '@tack/agent'
import { createScriptedModel, error, text, toolCalls } from '@tack/agent/testing'
import { CompactionPlugin, compactionAnswer } from '@tack/compaction'
import { emitSafely } from '@tack/kernel'
import { defineTool, registerTool } from '@tack/tools'
import type { Context } from 'cordis'
import { describe, expect, it } from 'vitest'
import { bridgeAgent, hook, prompt, recorded, recordTo, tempDir, until } from './helpers.ts'

const SUMMARY_MODEL = 'scripted/summary'

/** Compaction with its own scripted summariser, and a `note` tool that fills the history. */
function compaction(summaries: ReturnType<typeof createScriptedModel>) {
  return {
    plugins: [
      {
        plugin: CompactionPlugin,
        config: { summarizationModel: SUMMARY_MODEL, contextWindow: 4096, retainTokens: 1000, auto: false },
      },
    ],
    setup: (ctx: Context) => {
      ctx.modelAdapters.register([SUMMARY_MODEL], summaries.adapter)
      registerTool(
        ctx,
        defineTool({
          name: 'note',
          description: 'a long note',
          parameters: { type: 'object', properties: { n: { type: 'number' } } } as const,
          execute: (args) => `note ${String(args.n)}: ${'x'.repeat(1500)}`,
        }),
      )
    },
  }
}

const notes = (n: number) => [
  ...Array.from({ length: n }, (_, i) => toolCalls([{ name: 'note', args: { n: i } }])),
  text('noted'),
]

describe('SessionEnd', () => {
  it('fires at the end of a headless session with reason other; disposal waits for it', async () => {
    const dir = await tempDir()
    const out = join(dir, 'end.jsonl')
    const t = await bridgeAgent({
      projectHooks: hook('SessionEnd', recordTo(out, 'sleep 0.3; echo done >> ' + join(dir, 'late'))),
      script: [text('hi')],
      agentOptions: { labels: { headless: true } },
    })
    await t.agent.send(prompt('go'))
    const id = t.agent.session.id
    await t.handle.dispose('exit')
    expect(await recorded(out)).toEqual([
      expect.objectContaining({ hook_event_name: 'SessionEnd', reason: 'other', session_id: id }),
    ])
    expect(await readFile(join(dir, 'late'), 'utf8')).toBe('done\n')
    await t.dispose()
  })

  it('reason: clear for /clear, resume, prompt_input_exit when the person leaves the interactive UI; matcher on reason', async () => {
    const dir = await tempDir()
    const out = join(dir, 'end.jsonl')
    const t = await bridgeAgent({
      projectHooks: hook('SessionEnd', recordTo(out), { matcher: 'prompt_input_exit|clear' }),
      script: [],
      agentOptions: { labels: { interactive: true } },
    })
    await t.handle.dispose('exit')
    const other = await t.ctx.agents.create({ cwd: t.agent.cwd, options: { labels: { interactive: true } } })
    await other.dispose('clear')
    const resumed = await t.ctx.agents.create({
      cwd: t.agent.cwd,
      options: { labels: { interactive: true } },
    })
    await resumed.dispose('resume')
    expect((await recorded(out)).map((p) => p.reason)).toEqual(['prompt_input_exit', 'clear'])
    await t.dispose()
  })
})

describe('StopFailure', () => {
  it('fires instead of Stop when the turn ends on an API error, with error and error_details (and the last answer when there is one)', async () => {
    const dir = await tempDir()
    const out = join(dir, 'failure.jsonl')
    const stop = join(dir, 'stop.jsonl')
    const t = await bridgeAgent({
      projectHooks: {
        ...hook('StopFailure', recordTo(out), { matcher: 'rate_limit' }),
        ...hook('Stop', recordTo(stop)),
      },
      script: [error('slow down', { code: 'HTTP_429', status: 429 })],
    })
    try {
      await t.agent.send(prompt('go'))
      await until(async () => (await recorded(out)).length === 1)
      expect((await recorded(out))[0]).toMatchObject({
        hook_event_name: 'StopFailure',
        error: 'rate_limit',
        error_details: 'slow down',
      })
      expect(await recorded(stop)).toEqual([])
    } finally {
      await t.dispose()
    }
  })
})

describe('PreCompact and PostCompact', () => {
  it('PreCompact stdout joins the summariser instructions; PostCompact gets the summary, its stdout joins the answer; SessionStart compact follows', async () => {
    const dir = await tempDir()
    const out = join(dir, 'compact.jsonl')
    const summaries = createScriptedModel([text('THE SUMMARY')])
    const t = await bridgeAgent({
      projectHooks: {
        ...hook('PreCompact', recordTo(out, 'echo "Keep the note numbers."'), { matcher: 'manual' }),
        ...hook('PostCompact', recordTo(out, 'echo "post compact says hi"')),
        ...hook('SessionStart', recordTo(out), { matcher: 'compact' }),
      },
      ...compaction(summaries),
      script: notes(6),
    })
    try {
      await t.agent.send(prompt('take notes'))
      const result = await t.ctx.compact(t.agent, { instructions: 'focus on notes' })
      expect(result.compacted).toBe(true)
      const answer = compactionAnswer(result)
      expect(answer.ok && answer.text).toContain('post compact says hi')
      const request = JSON.stringify(summaries.requests[0].messages)
      expect(request).toContain('focus on notes')
      expect(request).toContain('Keep the note numbers.')
      await until(async () => (await recorded(out)).length === 3)
      const all = await recorded(out)
      expect(all.map((p) => p.hook_event_name)).toEqual(['PreCompact', 'PostCompact', 'SessionStart'])
      expect(all[0]).toMatchObject({ trigger: 'manual', custom_instructions: 'focus on notes' })
      expect(all[1]).toMatchObject({ trigger: 'manual', compact_summary: 'THE SUMMARY' })
      expect(all[2]).toMatchObject({ source: 'compact' })
    } finally {
      await t.dispose()
    }
  })

  it('PreCompact exit 2 blocks the compaction with a message naming the command', async () => {
    const summaries = createScriptedModel([text('never')])
    const t = await bridgeAgent({
      projectHooks: hook('PreCompact', 'echo "not yet" >&2; exit 2'),
      ...compaction(summaries),
      script: notes(6),
    })
    try {
      await t.agent.send(prompt('take notes'))
      const result = await t.ctx.compact(t.agent)
      expect(result).toEqual({
        compacted: false,
        reason: 'PreCompact hook blocked the compaction: [echo "not yet" >&2; exit 2]: not yet',
      })
      expect(summaries.requests).toHaveLength(0)
      expect(t.of('compact/start')).toEqual([])
    } finally {
      await t.dispose()
    }
  })
})

describe('Notification and InstructionsLoaded', () => {
  it('Notification gets notification_type and message, matched on the type', async () => {
    const dir = await tempDir()
    const out = join(dir, 'note.jsonl')
    const t = await bridgeAgent({
      projectHooks: hook('Notification', recordTo(out), { matcher: 'idle_prompt' }),
    })
    try {
      emitSafely(t.ctx, 'ui/notification', t.agent, { kind: 'permission-prompt', message: 'perm' })
      emitSafely(t.ctx, 'ui/notification', t.agent, {
        kind: 'idle-prompt',
        message: 'tack is waiting for your input',
      })
      await until(async () => (await recorded(out)).length === 1)
      await new Promise((r) => setTimeout(r, 200))
      expect(await recorded(out)).toEqual([
        expect.objectContaining({
          hook_event_name: 'Notification',
          notification_type: 'idle_prompt',
          message: 'tack is waiting for your input',
        }),
      ])
    } finally {
      await t.dispose()
    }
  })

  it('InstructionsLoaded fires once per file with memory_type and load_reason', async () => {
    const dir = await tempDir()
    const out = join(dir, 'instr.jsonl')
    const t = await bridgeAgent({
      projectHooks: hook('InstructionsLoaded', recordTo(out), { matcher: 'session_start' }),
    })
    try {
      emitSafely(
        t.ctx,
        'agent/instructions-loaded',
        t.agent,
        [
          { path: '/home/u/.tack/AGENTS.md', scope: 'user' },
          { path: join(t.agent.cwd, 'CLAUDE.md'), scope: 'project' },
        ],
        'session-start',
      )
      await until(async () => (await recorded(out)).length === 2)
      expect((await recorded(out)).map((p) => [p.file_path, p.memory_type, p.load_reason])).toEqual([
        ['/home/u/.tack/AGENTS.md', 'User', 'session_start'],
        [join(t.agent.cwd, 'CLAUDE.md'), 'Project', 'session_start'],
      ])
    } finally {
      await t.dispose()
    }
  })
})

describe('PreModelSwitch and PostModelSwitch', () => {
  it('Pre deny keeps the model; Post context reaches the next request', async () => {
    const dir = await tempDir()
    const out = join(dir, 'model.jsonl')
    const deny = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PreModelSwitch',
        permissionDecision: 'deny',
        permissionDecisionReason: 'too pricey',
      },
    })
    const context = JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PostModelSwitch', additionalContext: 'now on the other model' },
    })
    const t = await bridgeAgent({
      projectHooks: {
        ...hook('PreModelSwitch', recordTo(out, `echo '${deny}'`), { matcher: 'scripted/pricey' }),
        ...hook('PostModelSwitch', recordTo(out, `echo '${context}'`)),
      },
      script: [text('one'), text('two')],
    })
    try {
      t.ctx.modelAdapters.register(['scripted/other', 'scripted/pricey'], t.model.adapter)
      await t.agent.send(prompt('hi'))
      const from = t.agent.model
      expect(await switchAgentModel(t.ctx, t.agent, 'scripted/pricey', 'command')).toEqual({
        action: 'deny',
        reason: 'too pricey',
      })
      expect(t.agent.model).toBe(from)
      expect(await switchAgentModel(t.ctx, t.agent, 'scripted/other', 'command')).toEqual({ action: 'allow' })
      await t.agent.send(prompt('again'))
      expect(t.model.requests[1].config.model).toBe('scripted/other')
      expect(t.requestTexts()[1]).toContain('PostModelSwitch hook additional context: now on the other model')
      const all = await recorded(out)
      expect(all.map((p) => [p.hook_event_name, p.to_model])).toEqual([
        ['PreModelSwitch', 'scripted/pricey'],
        ['PostModelSwitch', 'scripted/other'],
      ])
      expect(all[1]).toMatchObject({
        from_model: from,
        requested_model: 'scripted/other',
        source: 'slash_command',
      })
      expect(typeof all[1].context_tokens).toBe('number')
    } finally {
      await t.dispose()
    }
  })
})
