// What tack as a library hands out is redacted as `tack run --json`'s lines are
// (docs/decisions/0380-library-events-redacted.md): a model on a loopback server runs a bash call that
// prints a secret of the environment and a workspace file holding the endpoint's key, writes the key into
// a file, and answers with it. No secret reaches the turn's events, its result, `session.events()`,
// `onApproval`, `readSession` or `listSessions`; the model, the file written and the stored log get the
// values as they were (the log stores them raw: redaction is on the way out, as for the CLI).
import { readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startLoopbackServer } from '@tack/llm/testing'
import { SqliteSessionStore } from '@tack/store-sqlite'
import { expect, test } from 'vitest'
import {
  type ApprovalRequest,
  listSessions,
  openSession,
  readSession,
  type TackEvent,
} from '../src/library/index.ts'
import { redactedCopy } from '../src/library/redaction.ts'
import { sandbox, writeLoopConfig } from './helpers.ts'

// The endpoint's key, in a variable whose name does not look secret: only the boot's declaration names it.
const GPU_PASS = 'gpu-pass-library-canary-4242'
// A secret-looking variable the config lets bash see (plugins.bash.envAllow).
const DEPLOY_TOKEN = 'deploy-token-library-canary-77'
// A value of $TACK_HOME/.env under a plain name.
const SETTING = 'tack-home-env-library-canary'
const SECRETS = [GPU_PASS, DEPLOY_TOKEN, SETTING]

const leaks = (what: unknown) => SECRETS.filter((secret) => JSON.stringify(what).includes(secret))
/**
 * The streamed deltas of `events`, each stream's joined (the loopback model sends every text and call in
 * two halves, and the last answer's half cuts through GPU_PASS): what a reader rebuilding the text sees.
 */
const joinedDeltas = (events: readonly { type: string; data?: unknown }[]) => {
  const streams = new Map<string, string>()
  for (const e of events) {
    if (e.type !== 'assistant/chunk') continue
    const { step, chunk } = e.data as { step: number; chunk: Record<string, string> }
    const key = `${step}/${chunk.type}/${chunk.callId ?? ''}`
    streams.set(key, (streams.get(key) ?? '') + (chunk.text ?? chunk.argumentsDelta ?? ''))
  }
  return [...streams.values()]
}
const redactedText = (text: string) => SECRETS.reduce((t, secret) => t.replaceAll(secret, '[redacted]'), text)

test('no secret tack knows reaches events, results, approvals or stored reads; the log and the model keep them', async () => {
  const box = await sandbox({ GPU_PASS, DEPLOY_TOKEN })
  await mkdir(box.tackHome, { recursive: true })
  await writeFile(join(box.tackHome, '.env'), `SOME_SETTING=${SETTING}\n`)
  await writeFile(join(box.workspace, '.env'), `GPU_PASS=${GPU_PASS}\nSOME_SETTING=${SETTING}\n`)
  const server = await startLoopbackServer({
    expectApiKey: GPU_PASS,
    script: [
      {
        kind: 'tool-calls',
        calls: [{ name: 'bash', args: { command: 'echo "token=$DEPLOY_TOKEN"; cat .env' } }],
      },
      {
        kind: 'tool-calls',
        calls: [{ name: 'write', args: { file_path: 'deploy.yml', content: `key: ${GPU_PASS}\n` } }],
      },
      { kind: 'text', text: `done; the key is ${GPU_PASS}, the token ${DEPLOY_TOKEN}` },
    ],
  })
  try {
    const config = await writeLoopConfig(box.root, server.baseUrl, {
      apiKeyEnv: 'GPU_PASS',
      fastRetries: true,
    })
    await writeFile(config, `${readFileSync(config, 'utf8')}  bash:\n    envAllow: [DEPLOY_TOKEN]\n`)
    const asked: ApprovalRequest[] = []
    const session = await openSession({
      cwd: box.workspace,
      model: 'loop/m',
      configFiles: [config],
      permissionMode: 'ask',
      env: box.env,
      onApproval: (request) => {
        asked.push(request)
        return { decision: 'allow' }
      },
    })
    const seen: TackEvent[] = []
    const turn = session.prompt(`deploy it; the token is ${DEPLOY_TOKEN}`)
    for await (const event of turn) seen.push(event)
    const result = await turn.result
    const all = session.events()
    const id = session.id
    await session.close()

    expect(result.exitReason).toBe('completed')
    expect(result.finalText).toBe('done; the key is [redacted], the token [redacted]')
    expect(leaks(result)).toEqual([])
    expect(leaks(seen)).toEqual([])
    expect(leaks(all)).toEqual([])
    // a key split across two deltas is redacted too (docs/decisions/0395-split-secrets-in-streams.md)
    expect(joinedDeltas(seen)).toContain('done; the key is [redacted], the token [redacted]')
    expect(leaks(joinedDeltas(seen))).toEqual([])
    expect(leaks(joinedDeltas(all))).toEqual([])
    const output = JSON.stringify(seen.filter((e) => e.type === 'tool/result'))
    expect(output).toContain('token=[redacted]')
    expect(output).toContain('GPU_PASS=[redacted]')
    expect(output).toContain('SOME_SETTING=[redacted]')
    // the stream and session.events() hand out the same (redacted) objects
    expect(all.slice(-seen.length)).toEqual(seen)
    expect(all.at(-1)).toBe(seen.at(-1))

    // onApproval saw the write's arguments and preview redacted, and the write ran with the real ones
    expect(asked.map((r) => r.tool)).toEqual(['bash', 'write'])
    expect(leaks(asked.map(({ signal: _, ...rest }) => rest))).toEqual([])
    expect(asked[1].input).toEqual({ file_path: 'deploy.yml', content: 'key: [redacted]\n' })
    expect(JSON.stringify(asked[1].preview)).toContain('[redacted]')
    expect(readFileSync(join(box.workspace, 'deploy.yml'), 'utf8')).toBe(`key: ${GPU_PASS}\n`)
    // the model read what bash printed as it was: redaction is on the way out, not in the session
    const sent = server.requests.map((r) => JSON.stringify(r.body ?? '')).join('\n')
    expect(sent).toContain(`token=${DEPLOY_TOKEN}`)

    // the stored log holds the values raw (unchanged by the library); the library's reads of it do not
    const store = SqliteSessionStore.open({ path: join(box.tackHome, 'sessions.db') })
    const stored = await store.load(id).finally(() => store.close())
    expect(leaks(stored.events).sort()).toEqual([...SECRETS].sort())
    const read = await readSession(id, { env: box.env, configFiles: [config], cwd: box.workspace })
    expect(leaks(read)).toEqual([])
    expect(leaks(joinedDeltas(read.events))).toEqual([])
    // the same events, field for field, with only the secrets replaced; the deltas re-cut around them
    const notChunk = <E extends { type: string }>(events: readonly E[]) =>
      events.filter((e) => e.type !== 'assistant/chunk')
    expect(notChunk(read.events)).toEqual(notChunk(JSON.parse(redactedText(JSON.stringify(stored.events)))))
    expect(read.events.map((e) => e.seq)).toEqual(stored.events.map((e) => e.seq))
    expect(joinedDeltas(read.events)).toEqual(joinedDeltas(stored.events).map(redactedText))
    const [summary] = await listSessions({ env: box.env, configFiles: [config], cwd: box.workspace })
    expect(summary.firstPrompt).toBe('deploy it; the token is [redacted]')
  } finally {
    await server.close()
  }
}, 60_000)

test('a redacted copy keeps the shape: untouched parts are the originals, frozen stays frozen, keys stay data', () => {
  const redact = (text: string) => text.replaceAll(GPU_PASS, '[redacted]')
  const clean = Object.freeze({ n: 1, list: Object.freeze(['a']) })
  const event = Object.freeze({
    type: 'tool/result',
    data: Object.freeze({ clean, output: `key ${GPU_PASS}`, [GPU_PASS]: true, none: null }),
  })
  const copy = redactedCopy(event, redact)
  expect(copy).toEqual({
    type: 'tool/result',
    data: { clean: { n: 1, list: ['a'] }, output: 'key [redacted]', '[redacted]': true, none: null },
  })
  expect(copy.data.clean).toBe(clean)
  expect(Object.isFrozen(copy) && Object.isFrozen(copy.data)).toBe(true)
  expect(event.data.output).toBe(`key ${GPU_PASS}`)
  expect(redactedCopy(clean, redact)).toBe(clean)
  // a logged `__proto__` key is copied as a key, never made the copy's prototype
  const hostile = JSON.parse(`{"__proto__": {"polluted": "${GPU_PASS}"}}`) as object
  const safe = redactedCopy(hostile, redact) as Record<string, unknown>
  expect(Object.getPrototypeOf(safe)).toBe(Object.prototype)
  expect(Object.getOwnPropertyDescriptor(safe, '__proto__')?.value).toEqual({ polluted: '[redacted]' })
  expect(Object.isFrozen(redactedCopy({ s: GPU_PASS }, redact))).toBe(false)
})
