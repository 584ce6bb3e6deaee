import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type {
  AgentEndEvent,
  ExtensionAPI,
  ExtensionCommandContext,
  ExtensionContext,
  SessionEntry,
  SessionStartEvent,
} from '@mariozechner/pi-coding-agent'
import { describe, expect, it } from 'vitest'
import { createPiExtension, PI_MESSAGE_TYPE, piDepth } from '../src/pi/extension.ts'
import { slot, tempDir } from './helpers.ts'

type Handler = (event: unknown, ctx: ExtensionContext) => unknown

/** A test double of pi's runtime: records handlers, commands, messages and notifications. */
class FakePi {
  handlers = new Map<string, Handler[]>()
  commands = new Map<
    string,
    { description?: string; handler: (args: string, ctx: ExtensionCommandContext) => Promise<void> }
  >()
  sent: Array<{
    message: { customType: string; content: unknown; display?: boolean }
    options?: { deliverAs?: string }
  }> = []
  notes: Array<{ text: string; type?: string }> = []
  entries: SessionEntry[] = []
  sessionId = 'pi-session-1'

  readonly api = {
    on: (event: string, handler: Handler) => {
      this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler])
    },
    registerCommand: (
      name: string,
      options: {
        description?: string
        handler: (args: string, ctx: ExtensionCommandContext) => Promise<void>
      },
    ) => {
      this.commands.set(name, options)
    },
    sendMessage: (
      message: { customType: string; content: unknown; display?: boolean },
      options?: { deliverAs?: string },
    ) => {
      this.sent.push({ message, options })
    },
  } as unknown as ExtensionAPI

  context(): ExtensionCommandContext {
    const sessionManager = {
      getSessionId: () => this.sessionId,
      getBranch: () => this.entries,
      getEntries: () => this.entries,
    }
    return {
      sessionManager,
      cwd: '/work',
      hasUI: false,
      ui: { notify: (text: string, type?: string) => this.notes.push({ text, type }) },
    } as unknown as ExtensionCommandContext
  }

  async emit(event: SessionStartEvent | AgentEndEvent): Promise<void> {
    for (const handler of this.handlers.get(event.type) ?? []) await handler(event, this.context())
  }

  async command(args: string): Promise<{ text: string; type?: string }> {
    await this.commands.get('dice')!.handler(args, this.context())
    return this.notes.at(-1)!
  }

  user(text: string): void {
    const id = `e${this.entries.length}`
    this.entries.push({
      type: 'message',
      id,
      parentId: null,
      timestamp: 't',
      message: { role: 'user', content: text, timestamp: 0 },
    } as SessionEntry)
  }

  other(): void {
    const n = this.entries.length
    this.entries.push({
      type: 'message',
      id: `a${n}`,
      parentId: null,
      timestamp: 't',
      message: { role: 'assistant', content: [], timestamp: 0 },
    } as unknown as SessionEntry)
    this.entries.push({
      type: 'message',
      id: `t${n}`,
      parentId: null,
      timestamp: 't',
      message: { role: 'toolResult', content: [], timestamp: 0 },
    } as unknown as SessionEntry)
    this.entries.push({
      type: 'custom_message',
      id: `c${n}`,
      parentId: null,
      timestamp: 't',
      customType: PI_MESSAGE_TYPE,
      content: 'nudge',
      display: true,
    } as unknown as SessionEntry)
  }
}

function setup(slots: Record<string, unknown>) {
  const agentDir = join(tempDir(), 'pi-agent')
  const base = join(agentDir, 'dice')
  mkdirSync(base, { recursive: true })
  writeFileSync(join(base, 'slots.json'), JSON.stringify(slots, null, 2))
  const pi = new FakePi()
  createPiExtension({
    environment: { env: { HOME: '/nowhere', PI_CODING_AGENT_DIR: agentDir }, cwd: '/work' },
  })(pi.api)
  return { pi, base }
}

describe('pi host (agent-dice/pi)', () => {
  it("R2 pi: agent_end rolls and delivers a hit as a next-turn custom message; cooldown persists in pi's agent folder", async () => {
    const { pi, base } = setup({
      d1: slot({ name: 'd1', type: 'single', die: 1, target: 1, onTrigger: { message: 'Run the tests.' } }),
    })
    pi.user('hello')
    await pi.emit({ type: 'agent_end', messages: [] })
    expect(pi.sent).toEqual([
      {
        message: { customType: PI_MESSAGE_TYPE, content: '🎲 Nat 1! Run the tests.', display: true },
        options: { deliverAs: 'nextTurn' },
      },
    ])
    expect(existsSync(join(base, 'state', 'triggered-d1-pi-session-1'))).toBe(true)
    await pi.emit({ type: 'agent_end', messages: [] })
    expect(pi.sent).toHaveLength(1)
  })
  it("R2 pi: depth counts the branch's user messages only (not tool results, assistants or our nudges)", async () => {
    const { pi, base } = setup({ acc: slot({ name: 'acc', die: 1, target: 1, accumulationRate: 2 }) })
    for (let i = 0; i < 4; i++) {
      pi.user(`q${i}`)
      pi.other()
    }
    expect(piDepth(pi.context())).toBe(4)
    await pi.emit({ type: 'agent_end', messages: [] })
    expect(pi.sent).toHaveLength(1)
    expect(
      JSON.parse(readFileSync(join(base, 'state', 'acc-pi-session-1.json'), 'utf8')).depth_at_last_trigger,
    ).toBe(4)
  })
  it('R8 pi: session_start clears on startup and new, never on resume, reload or fork', async () => {
    for (const [reason, cleared] of [
      ['startup', true],
      ['new', true],
      ['resume', false],
      ['reload', false],
      ['fork', false],
    ] as const) {
      const { pi, base } = setup({ a: slot({ name: 'a' }) })
      mkdirSync(join(base, 'state'), { recursive: true })
      writeFileSync(join(base, 'state', 'triggered-a-pi-session-1'), 't')
      await pi.emit({ type: 'session_start', reason })
      expect(existsSync(join(base, 'state', 'triggered-a-pi-session-1'))).toBe(!cleared)
    }
  })
  it("R23 pi: /dice runs the CLI against pi's folder, this session and its depth", async () => {
    const { pi, base } = setup({})
    expect(
      await pi.command('register nudge --type accumulator --accumulation-rate 2 --message "Check the plan"'),
    ).toEqual({
      text: 'Registered: nudge (accumulator, d20, target=20 exact)',
      type: 'info',
    })
    expect(JSON.parse(readFileSync(join(base, 'slots.json'), 'utf8')).nudge.onTrigger.message).toBe(
      'Check the plan',
    )
    pi.user('a')
    pi.user('b')
    pi.user('c')
    const status = await pi.command('status nudge')
    expect(status.text).toContain('  Current depth:   3\n  Since trigger:   3')
    expect(status.text).toContain('  Dice count:      1')
    expect(await pi.command('status missing')).toEqual({ text: 'Slot not found: missing', type: 'error' })
    expect((await pi.command('')).text).toMatch(/^Usage: agent-dice <command>/)
  })
  it('R20 pi: a failing store fails open (no message, no throw)', async () => {
    const { pi, base } = setup({ d1: slot({ name: 'd1', type: 'single', die: 1, target: 1 }) })
    writeFileSync(join(base, 'state'), 'not a folder')
    await expect(pi.emit({ type: 'agent_end', messages: [] })).resolves.toBeUndefined()
    expect(pi.sent).toEqual([])
  })
})
