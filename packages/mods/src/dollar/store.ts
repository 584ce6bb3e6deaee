// `$.store` (65-mod-host.md requirement 11): one JSON file per mod in tack's data folder, shared by
// and kept across sessions, 4 MiB, JSON values only. Writes are serialised per file.
import { readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { privateFolder, replacePrivateFileAsync } from '@tack/kernel/private-files'
import { checkSize } from './limits.ts'

const chains = new Map<string, Promise<unknown>>()

function serialised<T>(file: string, work: () => Promise<T>): Promise<T> {
  const run = (chains.get(file) ?? Promise.resolve()).then(work, work)
  chains.set(
    file,
    run.catch(() => {}),
  )
  return run
}

export function storeFile(dataDir: string, mod: string): string {
  return join(dataDir, 'mod-store', `${encodeURIComponent(mod)}.json`)
}

export function createStore(file: string) {
  const load = async (): Promise<Record<string, unknown>> => {
    try {
      return JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {}
      throw new Error(`$.store: ${file} is unreadable: ${(error as Error).message}`)
    }
  }
  const save = async (data: Record<string, unknown>) => {
    const text = JSON.stringify(data)
    checkSize('$.store', Buffer.byteLength(text))
    // The store folder is tack's: made (or tightened) owner-only, the file replaced 0600
    // (docs/decisions/0145-private-files.md).
    privateFolder(dirname(file))
    await replacePrivateFileAsync(file, text)
  }
  return {
    get: (key: string) => serialised(file, async () => (await load())[key]),
    set: (key: string, value: unknown) =>
      serialised(file, async () => {
        const json = JSON.stringify(value)
        if (json === undefined) throw new TypeError(`$.store.set(${key}): the value is not JSON`)
        const data = await load()
        data[key] = JSON.parse(json)
        await save(data)
      }),
    delete: (key: string) =>
      serialised(file, async () => {
        const data = await load()
        delete data[key]
        await save(data)
      }),
    keys: () => serialised(file, async () => Object.keys(await load())),
  }
}
