// `@<server>:<uri>` mentions in a prompt (55-mcp.md M10, docs/decisions/0245-mcp-resource-mentions.md):
// on `agent/prompt-submit`, once the prompt is allowed, each mentioned resource is read from the named
// server and attached after the prompt as context from `plugin:mcp`, which the log records once as a
// `context/message`: a later request, and a resumed session, replays it and reads nothing again. The
// prompt's text stays as typed. A mention of a server the agent cannot reach, or a read that fails, is
// left as typed and said in one line to the person; the prompt goes on. Only the first block of a
// top-level agent's user-sourced prompt is read for mentions (`typedText`).
import type { Content, HookContext } from '@tack/agent'
import type { Context } from 'cordis'
import { errorText } from './error-text.ts'
import { serversFor } from './resource-directory.ts'
import { readResourceText } from './resource-read.ts'

export interface Mention {
  /** The mention as typed, `@` included. */
  readonly text: string
  readonly server: string
  readonly uri: string
}

// A mention starts a word: `@`, a server name (no space, `:`, `@` or `"`), `:`, then a URI with a scheme
// (`demo://…`, `file:///…`), so `@src/a.ts:12` or `user@host:22` is no mention, and `@"…"` is always a
// file mention (docs/decisions/0280-file-mentions.md).
const MENTION = /(?<=^|\s)@([^\s:@"]+):([A-Za-z][A-Za-z0-9+.-]*:\S+)/g
// Sentence punctuation that follows a mention is not part of its URI.
const TRAILING = /[.,;:!?)\]}>'"]+$/

/** The distinct mentions of `text`, in order. */
export function findMentions(text: string): Mention[] {
  const found = new Map<string, Mention>()
  for (const match of text.matchAll(MENTION)) {
    const server = match[1] as string
    const uri = (match[2] as string).replace(TRAILING, '')
    const mention = { text: `@${server}:${uri}`, server, uri }
    if (!found.has(mention.text)) found.set(mention.text, mention)
  }
  return [...found.values()]
}

const SOURCE = { kind: 'plugin', name: 'mcp' } as const

/**
 * Listens on `agent/prompt-submit` for as long as `ctx` lives (or until the returned function is called).
 * Every server set mounts one; only the kernel's first live one acts, so a mention is read once however
 * many sets (the plugin's, each ACP session's) are up.
 */
export function mountMentions(ctx: Context): () => void {
  const token = {}
  const live = liveMounts(ctx)
  const log = ctx.logger('mcp')
  const listen = () =>
    ctx.on(
      'agent/prompt-submit',
      async (agent, prompt, next) => {
        const decision = await next()
        if (decision.action !== 'allow' || [...live][0] !== token) return decision
        // A person's words only: a subagent's task (written by the model, sent with the user's source) or a
        // plugin's prompt reaches no server outside the tool pipeline.
        if (agent.parent || prompt.source.kind !== 'user') return decision
        const mentions = findMentions(typedText(decision.content ?? prompt.content))
        if (mentions.length === 0) return decision
        const servers = serversFor(ctx, agent)
        const signal = agent.turnSignal ?? new AbortController().signal
        const attached: HookContext[] = []
        for (const mention of mentions) {
          const server = servers.get(mention.server)
          if (!server) {
            log.warn('%s', `${mention.text}: no MCP server named "${mention.server}"; left as typed`)
            continue
          }
          try {
            const text = await readResourceText(server, mention.uri, signal)
            attached.push({
              content: `${mention.text} (resource of MCP server "${mention.server}"):\n${text}`,
              source: SOURCE,
            })
          } catch (error) {
            if (signal.aborted) throw error
            log.warn('%s', `${mention.text}: reading it failed: ${errorText(error)}; left as typed`)
          }
        }
        if (attached.length === 0) return decision
        return { ...decision, additionalContext: [...(decision.additionalContext ?? []), ...attached] }
      },
      { phase: 'plugins' },
    )
  return ctx.effect(() => {
    live.add(token)
    const dispose = listen()
    return () => {
      live.delete(token)
      dispose()
    }
  }, 'mcp mentions')
}

const mounts = new WeakMap<object, Set<object>>()

function liveMounts(ctx: Context): Set<object> {
  let set = mounts.get(ctx.root)
  if (!set) {
    set = new Set()
    mounts.set(ctx.root, set)
  }
  return set
}

/**
 * The words the person typed: the prompt's first block. Later blocks are data that came with it — piped
 * stdin under `tack run`, an editor's embedded resources and read links under ACP — whose `@x:y:z` text
 * is not the person's and reads nothing.
 */
function typedText(content: Content): string {
  return typeof content === 'string' ? content : (content[0]?.text ?? '')
}
