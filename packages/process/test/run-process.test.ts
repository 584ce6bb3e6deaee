// The process backend against real bash: process groups, the kill ladder, bounded output, the spill
// file, stdin, exits and spawn failures. Timeouts that must outlast a command's first line (writing a
// pid file) are a generous second, so a loaded machine cannot fire them first.
import { randomBytes } from 'node:crypto'
import { existsSync, statSync } from 'node:fs'
import { chmod, mkdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runProcess } from '../src/run-process.ts'
import { decodeTail } from '../src/tail-buffer.ts'
import { expectGrandchildGoneAfterTimeout, isGone, readPid, runOptions, tempDir } from './helpers.ts'

describe('process groups and the kill ladder', () => {
  it('TL-17 runs the command as the leader of its own process group and session', async () => {
    const dir = await tempDir()
    const run = await runProcess(
      runOptions(dir, {
        command: `echo $$; cut -d' ' -f5,6 /proc/$$/stat; cut -d' ' -f5 /proc/${process.pid}/stat`,
      }),
    )
    const [pid, groupAndSession, ours] = run.stdout.trim().split('\n')
    expect(groupAndSession).toBe(`${pid} ${pid}`)
    expect(ours).not.toBe(pid)
  })

  it('TL-17 a backgrounded child dies with its group on timeout', async () => {
    const dir = await tempDir()
    const run = await runProcess(
      runOptions(dir, { command: 'sleep 30 & echo $! > bg.pid; wait', timeoutMs: 1000, graceMs: 200 }),
    )
    const pid = await readPid(join(dir, 'bg.pid'))
    expect(run).toMatchObject({ timedOut: true, aborted: false, exitCode: null, signal: 'SIGTERM' })
    expect(isGone(pid)).toBe(true)
  })

  it('TL-17 a TERM-trapping script is killed with SIGKILL after graceMs', async () => {
    const dir = await tempDir()
    const run = await runProcess(
      runOptions(dir, {
        command: `trap 'echo got TERM' TERM; while :; do sleep 0.05; done`,
        timeoutMs: 300,
        graceMs: 200,
      }),
    )
    // The trap ran (SIGTERM came first), and the script kept going until SIGKILL.
    expect(run.stdout).toContain('got TERM')
    expect(run).toMatchObject({ timedOut: true, signal: 'SIGKILL', exitCode: null })
  })

  it('R2 a grandchild ignoring SIGTERM is killed with the group and does not outlive the call', async () => {
    await expectGrandchildGoneAfterTimeout((dir) =>
      runProcess(
        runOptions(dir, {
          command: `bash -c 'trap "" TERM; echo $BASHPID > gc.pid; sleep 30; true' & wait`,
          timeoutMs: 1000,
          graceMs: 200,
        }),
      ),
    )
  })

  it('R2 a backgrounded job holding stdout open does not keep the call waiting; it is terminated when the command ends', async () => {
    const dir = await tempDir()
    const run = await runProcess(
      runOptions(dir, { command: 'sleep 60 & echo $! > bg.pid; echo done', timeoutMs: 60_000 }),
    )
    const pid = await readPid(join(dir, 'bg.pid'))
    expect(run).toMatchObject({ exitCode: 0, timedOut: false, killedLeftovers: true, stdout: 'done\n' })
    expect(isGone(pid)).toBe(true)
  })

  it('R2 a process that left the group with setsid cannot hold the call open through the pipes', async () => {
    const dir = await tempDir()
    const run = await runProcess(
      runOptions(dir, {
        command: 'setsid sleep 60 & echo $! > escaped.pid; echo started',
        timeoutMs: 60_000,
      }),
    )
    const pid = await readPid(join(dir, 'escaped.pid'))
    try {
      expect(run).toMatchObject({ exitCode: 0, timedOut: false, stdout: 'started\n' })
    } finally {
      process.kill(pid, 'SIGKILL') // outside our group by design: the test cleans it up itself
    }
  })

  it('TL-17 nothing is left to terminate after a plain command', async () => {
    const run = await runProcess(runOptions(await tempDir(), { command: 'echo hi' }))
    expect(run).toMatchObject({ exitCode: 0, signal: null, killedLeftovers: false, stdout: 'hi\n' })
  })

  it('TL-17 abort via the signal terminates the group and reports aborted', async () => {
    const dir = await tempDir()
    const controller = new AbortController()
    const pending = runProcess(
      runOptions(dir, { command: 'sleep 30 & echo $! > bg.pid; wait', signal: controller.signal }),
    )
    const pid = await readPid(join(dir, 'bg.pid'))
    controller.abort()
    const run = await pending
    expect(run).toMatchObject({ aborted: true, timedOut: false, exitCode: null, signal: 'SIGTERM' })
    expect(isGone(pid)).toBe(true)
  })

  it('TL-17 an abort that lands while bash is starting still terminates the run', async () => {
    const controller = new AbortController()
    const pending = runProcess(
      runOptions(await tempDir(), { command: 'sleep 30', signal: controller.signal }),
    )
    controller.abort()
    expect(await pending).toMatchObject({ aborted: true, timedOut: false })
  })

  it('TL-17 an already aborted signal starts nothing', async () => {
    const dir = await tempDir()
    const run = await runProcess(runOptions(dir, { command: 'touch ran', signal: AbortSignal.abort() }))
    expect(run).toMatchObject({ aborted: true, exitCode: null })
    expect(existsSync(join(dir, 'ran'))).toBe(false)
  })

  it('TL-17 a non-finite timeout means no timeout', async () => {
    const run = await runProcess(runOptions(await tempDir(), { command: 'echo ok', timeoutMs: Infinity }))
    expect(run).toMatchObject({ exitCode: 0, timedOut: false, stdout: 'ok\n' })
  })
})

describe('output', () => {
  it('TL-17 merged output keeps the order of stdout and stderr writes', async () => {
    const run = await runProcess(runOptions(await tempDir(), { command: 'echo a; echo b >&2; echo c' }))
    expect(run.stdout).toBe('a\nb\nc\n')
    expect(run.stderr).toBe('')
  })

  it('TL-33 unmerged output keeps stdout and stderr apart', async () => {
    const run = await runProcess(
      runOptions(await tempDir(), { command: 'echo a; echo b >&2; echo c', merge: false }),
    )
    expect(run.stdout).toBe('a\nc\n')
    expect(run.stderr).toBe('b\n')
  })

  it('TL-17 the tail is exactly the last maxOutputBytes bytes', async () => {
    const full = Array.from({ length: 20_000 }, (_, i) => `${i + 1}\n`).join('')
    const run = await runProcess(
      runOptions(await tempDir(), { command: 'seq 1 20000', maxOutputBytes: 1000 }),
    )
    expect(run.stdout).toBe(full.slice(-1000))
    expect(run).toMatchObject({ truncated: true, totalBytes: full.length })
  })

  it('TL-17 output within the limit is whole and not truncated', async () => {
    const run = await runProcess(runOptions(await tempDir(), { command: 'seq 1 100', maxOutputBytes: 1000 }))
    expect(run.stdout.split('\n')[0]).toBe('1')
    expect(run.truncated).toBe(false)
  })

  it('TL-17 the spill file is complete and byte-identical to the full output, binary and stderr included', async () => {
    const dir = await tempDir()
    const data = randomBytes(300_000)
    await writeFile(join(dir, 'data.bin'), data)
    const spillPath = join(dir, 'scratch', 'session', 'bash-1.log')
    const run = await runProcess(
      runOptions(dir, { command: 'cat data.bin; echo tail >&2', maxOutputBytes: 1000, spillPath }),
    )
    const full = Buffer.concat([data, Buffer.from('tail\n')])
    expect(run.spillPath).toBe(spillPath)
    expect((await readFile(spillPath)).equals(full)).toBe(true)
    expect(run.stdout).toBe(decodeTail(full.subarray(-1000), true))
    expect(run.totalBytes).toBe(full.length)
  })

  it('a spill file and its folder an older tack left 0644 / 0755 are tightened before the output is written (docs/decisions/0145-private-files.md)', async () => {
    const dir = await tempDir()
    const folder = join(dir, 'scratch', 'session')
    await mkdir(folder, { recursive: true })
    await chmod(folder, 0o755)
    const spillPath = join(folder, 'bash-1.log')
    await writeFile(spillPath, 'an older output\n')
    await chmod(spillPath, 0o644)
    const run = await runProcess(runOptions(dir, { command: 'seq 1 2000', maxOutputBytes: 10, spillPath }))
    expect(run.spillPath).toBe(spillPath)
    expect((await readFile(spillPath, 'utf8')).startsWith('1\n2\n')).toBe(true)
    expect((await stat(spillPath)).mode & 0o777).toBe(0o600)
    expect((await stat(folder)).mode & 0o777).toBe(0o700)
  })

  it('TL-17 a spill file that cannot be created is reported and the tail is still returned', async () => {
    const dir = await tempDir()
    await writeFile(join(dir, 'file'), '')
    const run = await runProcess(
      runOptions(dir, { command: 'seq 1 2000', maxOutputBytes: 10, spillPath: join(dir, 'file', 'x.log') }),
    )
    expect(run.spillPath).toBeUndefined()
    expect(run.spillError).toMatch(/ENOTDIR|EEXIST|not a directory/)
    expect(run.stdout).toBe('1999\n2000\n')
  })

  it('R2 a spill that fails mid-run (disk full) is reported and the command still completes with its tail', async () => {
    const devMode = statSync('/dev').mode
    const run = await runProcess(
      runOptions(await tempDir(), { command: 'seq 1 100000', maxOutputBytes: 7, spillPath: '/dev/full' }),
    )
    expect(run).toMatchObject({ exitCode: 0, stdout: '100000\n', truncated: true })
    expect(run.spillPath).toBeUndefined()
    expect(run.spillError).toMatch(/ENOSPC/)
    // the spill's folder is /dev here: nobody's scratch folder, so its mode is left as it was
    expect(statSync('/dev').mode).toBe(devMode)
  })

  it('R2 a process flooding stdout is bounded in memory', async () => {
    const run = await runProcess(
      runOptions(await tempDir(), { command: 'yes | head -c 50000000', maxOutputBytes: 4096 }),
    )
    expect(run.stdout.length).toBe(4096)
    expect(run).toMatchObject({ exitCode: 0, truncated: true, totalBytes: 50_000_000 })
  })

  it('R2 a flood spilled to disk is complete in the spill file while memory keeps only the tail', async () => {
    const dir = await tempDir()
    const spillPath = join(dir, 'flood.log')
    const run = await runProcess(
      runOptions(dir, { command: 'yes tack | head -c 30000000', maxOutputBytes: 100, spillPath }),
    )
    try {
      expect(run.stdout.length).toBe(100)
      expect(run.totalBytes).toBe(30_000_000)
      expect((await stat(spillPath)).size).toBe(30_000_000)
    } finally {
      await rm(spillPath, { force: true })
    }
  })

  it('R2 binary output is decoded with replacement characters, never a crash', async () => {
    const run = await runProcess(
      runOptions(await tempDir(), {
        command: `printf '\\xff\\xfe\\x00abc'; head -c 100000 /dev/urandom`,
        maxOutputBytes: 200_000,
      }),
    )
    expect(run.exitCode).toBe(0)
    expect(run.stdout.startsWith('\uFFFD\uFFFD\u0000abc')).toBe(true)
    expect(run.totalBytes).toBe(100_006)
  })
})

describe('exits, stdin and spawn failures', () => {
  it('R2 exit by signal is reported as the signal, not an exit code', async () => {
    const run = await runProcess(runOptions(await tempDir(), { command: 'kill -USR1 $$' }))
    expect(run).toMatchObject({ exitCode: null, signal: 'SIGUSR1', timedOut: false, aborted: false })
  })

  it('R2 exit 127: a command that is not found', async () => {
    const run = await runProcess(runOptions(await tempDir(), { command: 'definitely-not-a-command-tack' }))
    expect(run.exitCode).toBe(127)
    expect(run.stdout).toContain('command not found')
  })

  it('R2 exit codes 1 and 2 are passed through', async () => {
    const dir = await tempDir()
    expect((await runProcess(runOptions(dir, { command: 'exit 1' }))).exitCode).toBe(1)
    expect((await runProcess(runOptions(dir, { command: 'echo why >&2; exit 2' }))).exitCode).toBe(2)
  })

  it('TL-17 stdin is closed: a reading command sees end of file at once', async () => {
    const run = await runProcess(runOptions(await tempDir(), { command: 'read line; echo "read:$?"; cat' }))
    expect(run).toMatchObject({ exitCode: 0, stdout: 'read:1\n' })
  })

  it('TL-33 input is written to stdin, which is then closed', async () => {
    const run = await runProcess(runOptions(await tempDir(), { command: 'cat', input: '{"a":1}\nline 2' }))
    expect(run.stdout).toBe('{"a":1}\nline 2')
  })

  it('R2 input the command never reads does not break the run', async () => {
    const run = await runProcess(
      runOptions(await tempDir(), { command: 'exit 0', input: 'x'.repeat(5_000_000) }),
    )
    expect(run.exitCode).toBe(0)
    expect(run.spawnError).toBeUndefined()
  })

  it('TL-17 runs in the given working directory', async () => {
    const dir = await tempDir()
    const run = await runProcess(runOptions(dir, { command: 'pwd -P' }))
    expect(run.stdout).toBe(`${await realpath(dir)}\n`)
  })

  it('TL-17 a missing working directory is a spawn failure result, not an exception', async () => {
    const dir = join(await tempDir(), 'missing')
    const run = await runProcess(runOptions(dir, { command: 'echo hi' }))
    expect(run.spawnError).toEqual({ code: 'ENOENT', message: `the working directory ${dir} does not exist` })
    expect(run.exitCode).toBeNull()
  })

  it('TL-17 bash missing from PATH and an unusable environment are spawn failure results', async () => {
    const dir = await tempDir()
    const noBash = await runProcess(runOptions(dir, { command: 'echo hi', env: { PATH: dir } }))
    expect(noBash.spawnError?.message).toBe('bash was not found on the PATH of the given environment')
    const badEnv = await runProcess(
      runOptions(dir, { command: 'echo hi', env: { ...process.env, X: 'a\0b' } }),
    )
    expect(badEnv.spawnError?.code).toBe('ERR_INVALID_ARG_VALUE')
  })
})
