// A real kernel with the skills plugin (and bash, and the permission plugin) on folders written per test,
// driven by the scripted model (`@tack/agent/testing`): only the model is fake.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestAgent, type TestAgent } from '@tack/agent/testing'
import type { ScriptEntry } from '@tack/agent/testing'
import { CommandsPlugin } from '@tack/commands'
import { PermissionsPlugin } from '@tack/permissions'
import { BashToolPlugin } from '@tack/tool-bash'
import type { KnowHowFolder } from '../src/config.ts'
import { SkillsPlugin } from '../src/plugin.ts'

export interface SkillsBox {
  readonly root: string
  /** The user's skills folder (scope user). */
  readonly user: string
  /** The workspace. */
  readonly ws: string
  /** The workspace's `.tack/skills` (scope project). */
  readonly project: string
}

export function skillsBox(): SkillsBox {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tack-skills-agent-')))
  const box = {
    root,
    user: join(root, 'user-skills'),
    ws: join(root, 'ws'),
    project: join(root, 'ws/.tack/skills'),
  }
  mkdirSync(box.user, { recursive: true })
  mkdirSync(box.project, { recursive: true })
  return box
}

/** Writes `<dir>/<name>/SKILL.md` with `front` (YAML lines) and `body`. */
export function writeSkill(dir: string, name: string, front: string, body: string): string {
  mkdirSync(join(dir, name), { recursive: true })
  const file = join(dir, name, 'SKILL.md')
  writeFileSync(file, `---\nname: ${name}\n${front}---\n${body}`)
  return file
}

export interface AgentRun extends TestAgent {
  /** What the skills plugin said to the person (its warnings, one string each). */
  readonly said: string[]
}

export async function skillsAgent(
  box: SkillsBox,
  script: readonly ScriptEntry[],
  opts: { trusted?: boolean; mode?: string; catalogMaxBytes?: number } = {},
): Promise<AgentRun> {
  const folders: KnowHowFolder[] = [
    { dir: box.user, kind: 'skill', scope: 'user', label: '~/.claude/skills' },
    { dir: box.project, kind: 'skill', scope: 'project', label: '.tack/skills' },
    { dir: join(box.ws, '.tack/commands'), kind: 'command', scope: 'project', label: '.tack/commands' },
  ]
  const said: string[] = []
  const t = await createTestAgent({
    script,
    cwd: box.ws,
    agentOptions: { permissionMode: opts.mode ?? 'workspace-write' },
    plugins: [
      // first, so what the skills plugin says while it loads is heard
      (ctx) =>
        ctx.logger.exporter({
          colors: false,
          export: (m: { type: string; name: string; args: unknown[] }) => {
            if (m.type === 'warn' && m.name === 'skills') said.push(String(m.args[1] ?? m.args[0]))
          },
        } as never),
      { plugin: BashToolPlugin, config: {} },
      { plugin: CommandsPlugin, config: {} },
      { plugin: PermissionsPlugin, config: { mode: opts.mode ?? 'workspace-write' } },
      {
        plugin: SkillsPlugin,
        config: {
          folders,
          trusted: opts.trusted ?? false,
          cwd: box.ws,
          ...(opts.catalogMaxBytes !== undefined ? { catalogMaxBytes: opts.catalogMaxBytes } : {}),
        },
      },
    ],
  })
  return Object.assign(t, { said })
}

export const user = (content: string) => ({ content, source: { kind: 'user' as const } })

/** The text of every `tool/result` of the skill tool, in order. */
export function skillResults(t: TestAgent): string[] {
  return t
    .events()
    .filter((e) => e.type === 'tool/result' && (e.data as { name: string }).name === 'skill')
    .map((e) => (e.data as { content: Array<{ text?: string }> }).content.map((b) => b.text ?? '').join(''))
}
