// findOnPath: the PATH lookup behind bubblewrap detection and ripgrep.
import { chmod, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { findOnPath, isExecutable } from '../src/executable.ts'
import { tempDir } from '../src/testing.ts'

async function program(folder: string, name: string, mode: number): Promise<string> {
  await mkdir(folder, { recursive: true })
  const file = join(folder, name)
  await writeFile(file, '#!/bin/sh\n')
  await chmod(file, mode)
  return file
}

describe('findOnPath', () => {
  test('returns the first executable match in PATH order, passing over a file that cannot run', async () => {
    const root = await tempDir()
    await program(join(root, 'a'), 'tool', 0o644)
    const second = await program(join(root, 'b'), 'tool', 0o755)
    await program(join(root, 'c'), 'tool', 0o755)
    const path = ['', join(root, 'a'), join(root, 'b'), join(root, 'c')].join(':')
    expect(await findOnPath('tool', path)).toBe(second)
    expect(await isExecutable(join(root, 'a', 'tool'))).toBe(false)
    expect(await findOnPath('missing', path)).toBeUndefined()
  })

  test('skips a relative PATH folder, where a repository could plant the program', async () => {
    const root = await tempDir()
    await program(join(root, 'bin'), 'tool', 0o755)
    const cwd = process.cwd()
    process.chdir(root)
    try {
      expect(await isExecutable('bin/tool')).toBe(true)
      expect(await findOnPath('tool', 'bin')).toBeUndefined()
    } finally {
      process.chdir(cwd)
    }
  })
})
