// The `skill` tool (85-skills-and-commands.md K4, C2): `{name, args?}` loads one skill or prompt
// command the catalog lists — its folder line, then its body with the arguments substituted. A
// `disable-model-invocation` item is not loadable. `` !`cmd` `` runs through bash and the tools pipeline
// only for the user's own items or a trusted workspace (K5), else stays as text with a note; the same
// rule decides whether `allowed-tools` is granted for the rest of the turn. A skill loaded before in
// this session (its successful result still on the log's surface, so the model still has it) is not
// repeated.
import { defineTool, type ToolCallContext, ToolFailure, type ToolRegistry } from '@tack/tools'
import { currentTurn, grantToolsForTurn } from './grants.ts'
import { bashRunner } from './inline-runner.ts'
import { mayAct, renderItem, UNTRUSTED_WHY } from './render.ts'
import type { SkillsService } from './service.ts'
import { skillHost } from './skill-tool-host.ts'
import { parseToolPattern, understood } from './tool-patterns.ts'
import type { KnowHowItem } from './types.ts'

export const SKILL_TOOL = 'skill'

/** What a skill result carries besides its text (read back to find a skill loaded before). */
export interface SkillResultMeta {
  readonly skill: string
  readonly kind: KnowHowItem['kind']
  readonly dir: string
  /** The body was given (not a "loaded before" note). */
  readonly body: boolean
}

export function createSkillTool(service: SkillsService, tools: () => ToolRegistry | undefined) {
  return defineTool({
    name: SKILL_TOOL,
    access: 'read',
    host: skillHost,
    description:
      'Loads a skill (or prompt command) listed under "Skills" in the system prompt: returns its instructions, with `args` substituted, and the folder its files are in. Call it when one applies, before doing the task.',
    parameters: {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, description: 'The skill or command name, exactly as listed.' },
        args: { type: 'string', description: 'Optional text passed to it (its arguments).' },
      },
      required: ['name'],
    },
    async execute(input, call) {
      const item = lookUp(service, input.name)
      const session = call.agent?.session
      if (session && loadedBefore(session.surface(), item.name)) {
        const meta: SkillResultMeta = { skill: item.name, kind: item.kind, dir: item.dir, body: false }
        return {
          content: `${item.kind === 'skill' ? 'Skill' : 'Command'} "${item.name}" is already loaded earlier in this conversation; follow its instructions from there (its folder is ${item.dir}).`,
          meta,
        }
      }
      const acts = mayAct(item, service.trusted)
      const registry = tools()
      const policy =
        acts && registry
          ? ({
              kind: 'run',
              run: bashRunner(registry, {
                ...(call.agent ? { agent: call.agent } : {}),
                cwd: call.cwd,
                idPrefix: call.callId,
                parentCallId: call.callId,
              }),
            } as const)
          : ({ kind: 'keep', why: acts ? 'no bash tool is loaded' : UNTRUSTED_WHY } as const)
      // Granted before the body's !`cmd` run, so they are covered too: Claude Code's own way to let a
      // skill's commands run is to list them in allowed-tools.
      const notes = grantNotes(item, acts, call)
      const text = await renderItem(item, input.args ?? '', policy, call.signal)
      const meta: SkillResultMeta = { skill: item.name, kind: item.kind, dir: item.dir, body: true }
      return { content: notes ? `${text}\n\n${notes}` : text, meta }
    },
    present: {
      kind: 'read',
      key: ['name'],
      title: (args: { readonly name: string }) => `skill ${args.name}`,
    },
  })
}

function lookUp(service: SkillsService, name: string): KnowHowItem {
  // A skill written during this turn is found too: one more look at the folders when the name is new.
  let item = service.get(name)
  if (!item && service.refresh()) item = service.get(name)
  if (item && !item.disableModelInvocation) return item
  const names = service
    .items()
    .filter((i) => !i.disableModelInvocation)
    .map((i) => i.name)
  const known = names.length > 0 ? ` Available: ${names.slice(0, 50).join(', ')}.` : ' None are available.'
  const why = item ? 'is for people only (disable-model-invocation)' : 'does not exist'
  throw new ToolFailure('UNKNOWN_SKILL', `The skill "${name}" ${why}.${known}`)
}

/** Whether a successful skill result for `name` is still on the surface the model sees. */
export function loadedBefore(surface: readonly { type: string; data: unknown }[], name: string): boolean {
  return surface.some((e) => {
    if (e.type !== 'tool/result') return false
    const d = e.data as { name?: string; isError?: boolean; meta?: Partial<SkillResultMeta> }
    return d.name === SKILL_TOOL && !d.isError && d.meta?.skill === name && d.meta.body === true
  })
}

/** `allowed-tools`: granted for the rest of the turn (said so), or ignored with the reason. */
function grantNotes(item: KnowHowItem, acts: boolean, call: ToolCallContext): string {
  if (item.allowedTools.length === 0) return ''
  const list = item.allowedTools.join(', ')
  if (!acts) return `[tack: allowed-tools (${list}) ignored: ${UNTRUSTED_WHY}.]`
  const agent = call.agent
  const turn = agent ? currentTurn(agent.session) : undefined
  if (!agent || turn === undefined)
    return `[tack: allowed-tools (${list}) ignored: no turn to grant them for.]`
  const readable = item.allowedTools.filter((p) => {
    const parsed = parseToolPattern(p)
    return parsed !== undefined && understood(parsed)
  })
  const granted = grantToolsForTurn(agent, turn, readable, `${item.kind}:${item.name}`)
  const unread = item.allowedTools.filter((p) => !granted.includes(p))
  const parts = granted.length > 0 ? [`pre-approved for the rest of this turn: ${granted.join(', ')}`] : []
  if (unread.length > 0) parts.push(`not understood, so not pre-approved: ${unread.join(', ')}`)
  return `[tack: allowed-tools ${parts.join('; ')}.]`
}
