// ConfigChange (claude-code-hook-events.md): a settings file the bridge read at start changes during a
// session. The folder is watched for real (fs.watch), the file rewritten for real; a change that is not
// held back is read again, so hooks it adds run from the next point on; an exit-2 ConfigChange hook holds
// it back. Real loop, real bash, real hook scripts; only the model is scripted.
import { join } from 'node:path'
import { text, toolCalls } from '@tack/agent/testing'
import { describe, expect, it } from 'vitest'
import { bridgeAgent, hook, prompt, recorded, recordTo, tempDir, until, writeSettings } from './helpers.ts'

const bashCall = () => [toolCalls([{ name: 'bash', args: { command: 'echo hi' } }]), text('ok')]

async function session(opts: { configHook: string; trusted?: boolean }) {
  const dir = await tempDir()
  const changes = join(dir, 'changes.jsonl')
  const pre = join(dir, 'pre.jsonl')
  const t = await bridgeAgent({
    projectHooks: hook('ConfigChange', opts.configHook.replace('$OUT', changes)),
    script: bashCall(),
    bridge: { configWatchDebounceMs: 50, ...(opts.trusted === false ? { assumeTrusted: false } : {}) },
  })
  const settingsPath = join(t.agent.cwd, '.claude', 'settings.json')
  /** Rewrites the project file: the same ConfigChange hook plus a PreToolUse hook recording to `pre`. */
  const addPreToolUse = () =>
    writeSettings(settingsPath, {
      ...hook('ConfigChange', opts.configHook.replace('$OUT', changes)),
      ...hook('PreToolUse', recordTo(pre), { matcher: 'Bash' }),
    })
  const preToolUseListed = () =>
    t.ctx.hooksClaude.list(t.agent.cwd).some((h) => h.event === 'PreToolUse' && h.runs)
  return { t, changes, pre, settingsPath, addPreToolUse, preToolUseListed }
}

describe('ConfigChange', () => {
  it('a rewritten project settings file fires ConfigChange once with source and file_path; its new PreToolUse hook runs on the next tool call', async () => {
    const s = await session({ configHook: recordTo('$OUT') })
    await s.addPreToolUse()
    await until(async () => s.preToolUseListed())
    // Debounced: one rewrite is one change, however many fs events it made.
    await new Promise((r) => setTimeout(r, 300))
    expect(await recorded(s.changes)).toEqual([
      expect.objectContaining({
        hook_event_name: 'ConfigChange',
        source: 'project_settings',
        file_path: s.settingsPath,
        session_id: s.t.agent.session.id,
        cwd: s.t.agent.cwd,
      }),
    ])
    await s.t.agent.send(prompt('run it'))
    expect(await recorded(s.pre)).toEqual([
      expect.objectContaining({ hook_event_name: 'PreToolUse', tool_name: 'Bash' }),
    ])
    await s.t.dispose()
  })

  it('an exit-2 ConfigChange hook holds the change back: the hooks read at start stay', async () => {
    const s = await session({ configHook: recordTo('$OUT', 'echo "not now" >&2; exit 2') })
    await s.addPreToolUse()
    await until(async () => s.t.warnings().some((w) => w.includes('held back the change')))
    expect(s.t.warnings().find((w) => w.includes('held back'))).toContain('not now')
    expect(await recorded(s.changes)).toEqual([
      expect.objectContaining({ source: 'project_settings', file_path: s.settingsPath }),
    ])
    expect(s.preToolUseListed()).toBe(false)
    await s.t.agent.send(prompt('run it'))
    expect(await recorded(s.pre)).toEqual([])
    await s.t.dispose()
  })

  it('a project settings file that appears in a trusted workspace is picked up (source local_settings)', async () => {
    const s = await session({ configHook: recordTo('$OUT') })
    const local = join(s.t.agent.cwd, '.claude', 'settings.local.json')
    await writeSettings(local, hook('PreToolUse', recordTo(s.pre)))
    await until(async () => s.preToolUseListed())
    expect(await recorded(s.changes)).toEqual([
      expect.objectContaining({ source: 'local_settings', file_path: local }),
    ])
    await s.t.agent.send(prompt('run it'))
    expect(await recorded(s.pre)).toHaveLength(1)
    await s.t.dispose()
  })

  it('in an untrusted workspace a project file change fires nothing and loads nothing', async () => {
    const s = await session({ configHook: recordTo('$OUT'), trusted: false })
    await s.addPreToolUse()
    await new Promise((r) => setTimeout(r, 400))
    expect(await recorded(s.changes)).toEqual([])
    await s.t.agent.send(prompt('run it'))
    expect(await recorded(s.pre)).toEqual([])
    await s.t.dispose()
  })

  it('a change made while no session lived (across /clear) reaches the next session in the workspace', async () => {
    const s = await session({ configHook: recordTo('$OUT') })
    await s.t.handle.dispose('clear')
    await s.addPreToolUse()
    await new Promise((r) => setTimeout(r, 200))
    expect(s.preToolUseListed()).toBe(false)
    const next = await s.t.ctx.agents.create({ cwd: s.t.agent.cwd })
    await until(async () => s.preToolUseListed())
    expect(await recorded(s.changes)).toEqual([
      expect.objectContaining({ source: 'project_settings', session_id: next.agent.session.id }),
    ])
    await next.dispose('exit')
    await s.t.dispose()
  })

  it('a change to the user settings file fires with source user_settings', async () => {
    const s = await session({ configHook: recordTo('$OUT') })
    const user = join(s.t.home, '.claude', 'settings.json')
    await writeSettings(user, hook('PreToolUse', recordTo(s.pre)))
    await until(async () => s.preToolUseListed())
    expect(await recorded(s.changes)).toEqual([
      expect.objectContaining({ source: 'user_settings', file_path: user }),
    ])
    await s.t.dispose()
  })
})
