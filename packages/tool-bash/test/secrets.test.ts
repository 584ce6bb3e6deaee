// Bash reads `ctx.secrets` (packages/kernel/src/secrets.ts) at each call: a variable or file another
// plugin declares secret is scrubbed or hidden whether that plugin loaded before bash or after it, and
// no longer once that plugin is gone. Real bash, real bwrap (`.ci/run` installs it), real files.
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { AgentOptions } from '@tack/agent'
import { type Context, declareSecrets, type SecretDeclaration } from '@tack/kernel'
import { memorySession } from '@tack/session/testing'
import type { ToolCallRequest } from '@tack/tools'
import { stubAgent } from '@tack/tools/testing'
import { describe, expect, it } from 'vitest'
import { bashCall, bashContext, tempDir, textOf } from './helpers.ts'

const declaring = (declaration: SecretDeclaration) => ({
  name: 'declares-secrets',
  apply: (ctx: Context) => declareSecrets(ctx, declaration),
})

function sandboxedCall(command: string, cwd: string): ToolCallRequest {
  const options: AgentOptions = { permissionMode: 'workspace-write' }
  return { ...bashCall({ command }, cwd), agent: stubAgent(memorySession(cwd), { cwd, options }) }
}

describe('bash and ctx.secrets', () => {
  it('a variable declared secret after bash loaded is scrubbed, and back once its plugin is disposed', async () => {
    // A name bash's own scrub lets through (it does not look secret).
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', GPU_BOX: 'gpu-box-secret', KEEP: 'kept' }
    const ctx = await bashContext({ env })
    const call = async () =>
      textOf(await ctx.tools.execute(bashCall({ command: 'echo "[$GPU_BOX] $KEEP"' }, await tempDir())))
    expect(await call()).toBe('[gpu-box-secret] kept')
    const late = ctx.plugin(declaring({ variables: ['GPU_BOX'] }))
    await late
    expect(await call()).toBe('[] kept')
    await late.dispose()
    expect(await call()).toBe('[gpu-box-secret] kept')
  })

  it('a file declared secret after bash loaded is hidden from a sandboxed command', async () => {
    const dir = await tempDir()
    const secret = join(dir, 'sessions.db')
    await writeFile(secret, 'secret-rows')
    const ctx = await bashContext({ sandbox: 'on' })
    const call = async () => textOf(await ctx.tools.execute(sandboxedCall(`cat ${secret}`, await tempDir())))
    expect(await call()).toBe('secret-rows')
    await ctx.plugin(declaring({ files: [secret, `${secret}-wal`] }))
    expect(await call()).not.toContain('secret-rows')
  })
})
