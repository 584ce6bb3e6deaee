// tack as a library, in-process (docs/library.md, docs/decisions/0345-tack-as-a-library.md): a scripted
// session through openSession with an approval callback, its events streamed, then resumed, forked and
// aborted; what it stores is read back by the real binary.
import { existsSync, readFileSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import {
  type ApprovalRequest,
  forkSession,
  isEvent,
  listSessions,
  openSession,
  readSession,
  resumeSession,
  type TackEvent,
  TackError,
} from '../src/library/index.ts'
import { runTack, sandbox, scriptedModel } from './helpers.ts'

const write = (file_path: string, content: string) => ({
  kind: 'tool-calls',
  calls: [{ name: 'write', args: { file_path, content } }],
})

describe('tack as a library', () => {
  test('a scripted session: one call approved and one denied through onApproval, events streamed, metadata logged', async () => {
    const box = await sandbox()
    const model = await scriptedModel(box.root, [
      write('allowed.txt', 'yes\n'),
      write('denied.txt', 'no\n'),
      { kind: 'text', text: 'wrote one file' },
      { kind: 'text', text: 'second prompt answered' },
    ])
    const asked: ApprovalRequest[] = []
    const session = await openSession({
      cwd: box.workspace,
      model,
      permissionMode: 'ask',
      env: box.env,
      tackHome: box.tackHome,
      metadata: { jobId: 'job-1', attemptOf: 'earlier-session' },
      onApproval: (request) => {
        asked.push(request)
        return (request.input as { file_path: string }).file_path.endsWith('allowed.txt')
          ? { decision: 'allow' }
          : { decision: 'deny', reason: 'not this one' }
      },
    })
    const seen: TackEvent[] = []
    const turn = session.prompt('write the files')
    for await (const event of turn) seen.push(event)
    const result = await turn.result

    expect(result).toMatchObject({
      sessionId: session.id,
      exitReason: 'completed',
      finalText: 'wrote one file',
      turns: 1,
      steps: 3,
    })
    expect(result.error).toBeUndefined()
    expect(result.permissionDenials).toEqual([
      expect.objectContaining({ tool: 'write', message: 'not this one' }),
    ])
    expect(asked.map((r) => [r.tool, r.sessionId, r.access])).toEqual([
      ['write', session.id, 'write'],
      ['write', session.id, 'write'],
    ])
    expect(readFileSync(join(box.workspace, 'allowed.txt'), 'utf8')).toBe('yes\n')
    expect(existsSync(join(box.workspace, 'denied.txt'))).toBe(false)
    // the stream holds this prompt's events, in log order, ending with the turn's end
    expect(seen.map((e) => e.seq)).toEqual(seen.map((_, i) => seen[0].seq + i))
    expect(seen.at(-1)?.type).toBe('turn/end')
    const resolved = seen.filter((e) => isEvent(e, 'approval/resolved')).map((e) => e.data)
    expect(resolved).toEqual([
      expect.objectContaining({ decision: 'allow', by: 'user' }),
      expect.objectContaining({ decision: 'deny', by: 'user' }),
    ])
    const metadata = session.events().find((e) => isEvent(e, 'session/metadata'))
    expect(metadata?.data).toEqual({ jobId: 'job-1', attemptOf: 'earlier-session' })

    // a second prompt on the same session
    const second = await session.prompt('and now?').result
    expect(second.finalText).toBe('second prompt answered')
    const id = session.id
    await session.close()
    await session.close() // idempotent
    expect(() => session.prompt('after close')).toThrow(TackError)

    // the stored session is what the CLI lists
    const list = await runTack(['sessions', 'list', '--json'], { env: box.env, cwd: box.workspace })
    const stored = JSON.parse(list.stdout) as Array<{ id: string; turns: number }>
    expect(stored).toEqual([expect.objectContaining({ id, turns: 2 })])
    // the metadata was stored with the log (written with the first turn)
    const again = await resumeSession(id, { env: box.env, tackHome: box.tackHome })
    expect(again.events().find((e) => isEvent(e, 'session/metadata'))?.data).toEqual({
      jobId: 'job-1',
      attemptOf: 'earlier-session',
    })
    await again.close()
  })

  test('resume continues the stored log, fork copies it into a new session, abort ends a turn aborted', async () => {
    const box = await sandbox()
    const model = await scriptedModel(box.root, [
      { kind: 'text', text: 'first' },
      { kind: 'text', text: 'resumed' },
      { kind: 'hang' },
      { kind: 'text', text: 'forked' },
    ])
    const options = { model, env: box.env, tackHome: box.tackHome }
    const first = await openSession({ ...options, cwd: box.workspace })
    expect((await first.prompt('one').result).finalText).toBe('first')
    const length = first.events().length
    await first.close()

    const resumed = await resumeSession(first.id.slice(0, 8), options)
    expect(resumed.id).toBe(first.id)
    expect(resumed.cwd).toBe(box.workspace)
    expect(resumed.events().length).toBeGreaterThanOrEqual(length)
    expect((await resumed.prompt('two').result).finalText).toBe('resumed')

    // abort while the model hangs: the turn ends aborted and the log says so
    const hanging = resumed.prompt('three')
    for await (const event of hanging) if (event.type === 'step/start') resumed.abort()
    const aborted = await hanging.result
    expect(aborted.exitReason).toBe('aborted')
    expect(resumed.events().at(-1)).toMatchObject({ type: 'turn/end', data: { reason: { kind: 'aborted' } } })
    await resumed.close()

    const fork = await forkSession(first.id, options)
    expect(fork.id).not.toBe(first.id)
    expect((await fork.prompt('four').result).finalText).toBe('forked')
    await fork.close()
    // a session opened and closed without a prompt is not stored
    const idle = await openSession({ ...options, cwd: box.workspace })
    await idle.close()
    const list = await runTack(['sessions', 'list', '--json'], { env: box.env, cwd: box.workspace })
    expect((JSON.parse(list.stdout) as unknown[]).length).toBe(2)
    // the same store read through the library
    const listed = await listSessions({ env: box.env, tackHome: box.tackHome })
    expect(listed.map((s) => s.id).sort()).toEqual([first.id, fork.id].sort())
    expect(listed.find((s) => s.id === fork.id)?.parentSession).toBe(first.id)
    const read = await readSession(first.id.slice(0, 8), { env: box.env, tackHome: box.tackHome })
    expect(read.summary).toMatchObject({ id: first.id, turns: 3 })
    expect(read.events.filter((e) => e.type === 'turn/end').map((e) => e.data)).toEqual([
      expect.objectContaining({ reason: { kind: 'completed' } }),
      expect.objectContaining({ reason: { kind: 'completed' } }),
      expect.objectContaining({ reason: { kind: 'aborted' } }),
    ])
  })

  test('two sessions at once in one process: each its own workspace, model and approver', async () => {
    const box = await sandbox()
    const other = join(box.root, 'other-ws')
    await mkdir(other)
    const script = () => [write('f.txt', 'x\n'), { kind: 'text', text: 'done' }]
    const open = async (cwd: string, decision: 'allow' | 'deny') =>
      openSession({
        cwd,
        model: await scriptedModel(box.root, script()),
        permissionMode: 'ask',
        env: box.env,
        tackHome: box.tackHome,
        onApproval: () => (decision === 'allow' ? { decision } : { decision, reason: 'this one says no' }),
      })
    const [allowing, denying] = await Promise.all([open(box.workspace, 'allow'), open(other, 'deny')])
    const [a, b] = await Promise.all([allowing.prompt('write').result, denying.prompt('write').result])
    await Promise.all([allowing.close(), denying.close()])
    expect([a.exitReason, b.exitReason]).toEqual(['completed', 'completed'])
    expect(a.permissionDenials).toEqual([])
    expect(b.permissionDenials).toEqual([expect.objectContaining({ message: 'this one says no' })])
    expect(existsSync(join(box.workspace, 'f.txt'))).toBe(true)
    expect(existsSync(join(other, 'f.txt'))).toBe(false)
  })

  test("a prompt's signal aborts its turn; close() during an unanswered approval ends the turn and the question", async () => {
    const box = await sandbox()
    const model = await scriptedModel(box.root, [{ kind: 'hang' }, write('w.txt', 'w\n')])
    const signals: AbortSignal[] = []
    const asked = Promise.withResolvers<void>()
    const session = await openSession({
      cwd: box.workspace,
      model,
      permissionMode: 'ask',
      env: box.env,
      tackHome: box.tackHome,
      // never answers: the question must end with the turn
      onApproval: (request) => {
        signals.push(request.signal)
        asked.resolve()
        return new Promise(() => {})
      },
    })
    const controller = new AbortController()
    const first = session.prompt('hang', { signal: controller.signal })
    for await (const event of first) if (event.type === 'step/start') controller.abort()
    expect((await first.result).exitReason).toBe('aborted')

    const second = session.prompt('write w')
    await asked.promise
    await session.close()
    expect((await second.result).exitReason).toBe('aborted')
    expect(signals).toHaveLength(1)
    expect(signals[0].aborted).toBe(true)
    expect(session.events().findLast((e) => e.type === 'approval/resolved')?.data).toMatchObject({
      decision: 'deny',
      by: 'none',
    })
    expect(existsSync(join(box.workspace, 'w.txt'))).toBe(false)
    expect(() => session.prompt(' ')).toThrow(TackError)
  })

  test('without onApproval an ask is denied as in tack run; bad options are one clear TackError', async () => {
    const box = await sandbox()
    const model = await scriptedModel(box.root, [write('x.txt', 'x\n'), { kind: 'text', text: 'done' }])
    const session = await openSession({
      cwd: box.workspace,
      model,
      permissionMode: 'ask',
      env: box.env,
      tackHome: box.tackHome,
    })
    const result = await session.prompt('write x').result
    expect(result.permissionDenials).toEqual([
      expect.objectContaining({ tool: 'write', message: 'no approver was available' }),
    ])
    expect(existsSync(join(box.workspace, 'x.txt'))).toBe(false)
    await session.close()

    const refused = (options: Record<string, unknown>) =>
      openSession({ cwd: box.workspace, env: box.env, tackHome: box.tackHome, model, ...options })
    await expect(refused({ permissionMode: 'sometimes' })).rejects.toThrow(
      'permissionMode must be one of ask, workspace-write, read-only, yolo (got "sometimes")',
    )
    // a callback that is not one is refused at open, not at the first call it was to answer
    await expect(refused({ onApproval: 'allow' })).rejects.toThrow(
      'onApproval must be a function (got "allow")',
    )
    await expect(refused({ onWarning: {} })).rejects.toThrow('onWarning must be a function (got {})')
    await expect(refused({ cwd: join(box.root, 'missing') })).rejects.toThrow(
      /cwd .*missing: not an existing folder/,
    )
    await expect(refused({ configFiles: [join(box.root, 'none.yml')] })).rejects.toBeInstanceOf(TackError)
    await expect(refused({ mcpServers: { broken: { type: 'http', url: 'ftp://x' } } })).rejects.toThrow(
      /openSession options.*servers\.broken\.url/,
    )
    // a secret of the environment never reaches a message (here: a file name that holds one)
    const secret = 'sk-library-test-secret-0123456789'
    const leak = await refused({
      env: { ...box.env, SOME_API_KEY: secret },
      configFiles: [join(box.root, `${secret}.yml`)],
    }).catch((error: Error) => error)
    expect(leak).toBeInstanceOf(TackError)
    expect((leak as Error).message).toContain('file not found')
    expect((leak as Error).message).not.toContain(secret)
    await expect(
      resumeSession('no-such-session', { env: box.env, tackHome: box.tackHome }),
    ).rejects.toMatchObject({
      kind: 'not-found',
    })
  })
})
