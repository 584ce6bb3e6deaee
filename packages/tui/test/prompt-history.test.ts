// The prompt box's history, per folder under $TACK_HOME/history (a real temp folder).
import { chmodSync, statSync } from 'node:fs'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { PromptHistory } from '../src/prompt-history.ts'

const dir = () => mkdtemp(join(tmpdir(), 'tack-history-'))

describe('prompt history', () => {
  test('prompts persist per folder, oldest first; another folder has its own', async () => {
    const d = await dir()
    const a = new PromptHistory(d, '/work/a', 100)
    a.load()
    a.add('first')
    a.add('second\nwith two lines')
    a.add('second\nwith two lines') // a repeat of the last is not stored again
    expect(new PromptHistory(d, '/work/a', 100).load()).toEqual(['first', 'second\nwith two lines'])
    expect(new PromptHistory(d, '/work/b', 100).load()).toEqual([])
    expect(new PromptHistory(d, '/work/a', 100).last()).toBeUndefined() // before load
  })

  test('the history is owner-only: an older 0644 file and 0755 folder are tightened at the next prompt', async () => {
    const d = join(await dir(), 'history')
    const h = new PromptHistory(d, '/w', 100)
    h.add('first')
    chmodSync(d, 0o755)
    chmodSync(h.file, 0o644)
    h.add('second')
    expect([statSync(d).mode & 0o777, statSync(h.file).mode & 0o777]).toEqual([0o700, 0o600])
  })

  test('keeps the last N; a torn line is skipped; 0 keeps and writes nothing', async () => {
    const d = await dir()
    const h = new PromptHistory(d, '/w', 2)
    h.load()
    for (const p of ['a', 'b', 'c']) h.add(p)
    await writeFile(h.file, `${await readFile(h.file, 'utf8')}"torn`)
    const again = new PromptHistory(d, '/w', 2)
    expect(again.load()).toEqual(['b', 'c'])
    expect(again.last()).toBe('c')
    const none = new PromptHistory(d, '/none', 0)
    none.add('secret')
    expect(none.load()).toEqual([])
    await expect(readFile(none.file, 'utf8')).rejects.toThrow()
  })

  test('a folder that cannot be written: add throws (the screen says so once) and memory keeps it', async () => {
    // A file where the history folder should be: no mkdir can pass it, not even root's.
    const d = await dir()
    await writeFile(join(d, 'history'), 'not a folder')
    const h = new PromptHistory(join(d, 'history'), '/w', 10)
    h.load()
    expect(() => h.add('x')).toThrow()
    expect(h.last()).toBe('x')
  })
})
