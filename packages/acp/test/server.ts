// The ACP server the in-process tests connect to: the scripted model, `ask` mode, native tools.
import { SCRIPTED_MODEL } from '@tack/agent/testing'
import type { Context } from 'cordis'
import '../src/index.ts'

export function scriptedServer(ctx: Context, warn: (line: string) => void = () => {}) {
  return ctx.acp.server({
    version: '0.0.0-test',
    model: SCRIPTED_MODEL,
    permissionMode: 'ask',
    toolsMode: 'native',
    warn,
  })
}
