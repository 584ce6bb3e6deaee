// Security 1 (90-quality) for a secret holding a character JSON escapes (`"`, `\`): in a tool call's
// arguments — themselves JSON text — it stands escaped (`pa\"ss`), and a `--json` line or a JSONL export
// line escapes that text again (`pa\\\"ss`). A client reads the line, then the arguments, and has the
// value: so the twice-escaped form is redacted too (packages/kernel/src/secrets.ts `secretRedactor`).
import { startLoopbackServer } from '@tack/llm/testing'
import { expect, test } from 'vitest'
import { jsonLines, runTack, sandbox, writeLoopConfig } from './helpers.ts'

const PASSWORD = 'pa"ss\\word-7c1e93'
const COMMAND = `echo "${PASSWORD.length}" # ${PASSWORD}`

/** Every string in `value`, and in any string of it that is JSON text (a call's arguments), parsed. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value)
      if (parsed !== null && typeof parsed === 'object') return [value, ...strings(parsed)]
    } catch {}
    return [value]
  }
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(strings)
  return []
}

test('a password with a quote and a backslash, in a call the model makes, is redacted from --json and the export', async () => {
  const server = await startLoopbackServer({
    script: [
      { kind: 'tool-calls', calls: [{ name: 'bash', args: { command: COMMAND } }] },
      { kind: 'text', text: 'done' },
    ],
  })
  const box = await sandbox({ DB_PASSWORD: PASSWORD })
  try {
    const config = await writeLoopConfig(box.root, server.baseUrl)
    const run = await runTack(['run', '--json', '--config', config, '--model', 'loop/m', 'check the db'], {
      env: box.env,
      cwd: box.workspace,
    })
    expect(run.code, run.stderr).toBe(0)
    const lines = jsonLines(run.stdout)
    // the call was made with the password (the model's arguments reached the log)
    expect(lines.some((l) => l.type === 'tool/call')).toBe(true)
    for (const line of lines) for (const s of strings(line)) expect(s).not.toContain(PASSWORD)

    const { sessionId } = lines.at(-1) as unknown as { sessionId: string }
    const exported = await runTack(['sessions', 'export', sessionId], { env: box.env, cwd: box.workspace })
    expect(exported.code, exported.stderr).toBe(0)
    for (const line of jsonLines(exported.stdout))
      for (const s of strings(line)) expect(s).not.toContain(PASSWORD)
  } finally {
    await server.close()
  }
})
