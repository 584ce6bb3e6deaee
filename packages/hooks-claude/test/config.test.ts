// B1: the bridge's validated Config — defaults, configured values, rejected values.
import { Context } from '@tack/kernel'
import { describe, expect, it } from 'vitest'
import { HooksClaudeConfig, HooksClaudePlugin } from '../src/index.ts'

describe('B1 config', () => {
  it('B1 defaults', () => {
    expect(HooksClaudeConfig.parse({})).toEqual({
      sources: [],
      discover: true,
      stderrSummaryMaxChars: 500,
      maxConsecutiveStopBlocks: 8,
      awaitSessionStart: true,
      assumeTrusted: false,
      configWatchDebounceMs: 200,
    })
  })

  it('B1 configured values are kept', () => {
    const config = {
      sources: [{ path: 'hooks.json', pluginRoot: '/plugins/p' }, { path: '/etc/s.json' }],
      discover: false,
      projectDir: '/p',
      stderrSummaryMaxChars: 20,
      maxConsecutiveStopBlocks: 2,
      awaitSessionStart: false,
      transcriptDir: '/t',
      home: '/h',
      dataDir: '/d',
      tackHome: '/th',
      assumeTrusted: true,
      configWatchDebounceMs: 1000,
    }
    expect(HooksClaudeConfig.parse(config)).toEqual(config)
  })

  it('B1 out-of-range and malformed values are rejected at load, naming the key', async () => {
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ stderrSummaryMaxChars: 0 }, /stderrSummaryMaxChars: must be an integer 1–100000/],
      [{ stderrSummaryMaxChars: 100_001 }, /stderrSummaryMaxChars/],
      [{ maxConsecutiveStopBlocks: 0 }, /maxConsecutiveStopBlocks: must be an integer 1–100/],
      [{ maxConsecutiveStopBlocks: 101 }, /maxConsecutiveStopBlocks/],
      [{ sources: [{ file: 'x' }] }, /sources: must be a list of \{path, pluginRoot\?\}/],
      [{ sources: 'x.json' }, /sources/],
      [{ transcriptDir: 'relative' }, /transcriptDir: must be an absolute path/],
      [{ home: 'relative' }, /home/],
      [{ tackHome: 'relative' }, /tackHome: must be an absolute path/],
      [{ awaitSessionStart: 'yes' }, /awaitSessionStart: must be true or false/],
      [{ configWatchDebounceMs: 9 }, /configWatchDebounceMs: must be an integer 10–10000/],
      [{ configWatchDebounceMs: 10_001 }, /configWatchDebounceMs/],
      [{ timeoutMs: 5 }, /timeoutMs: unknown key/],
    ]
    for (const [config, message] of bad) {
      expect(() => HooksClaudeConfig.parse(config)).toThrow(message)
      await expect(new Context().plugin(HooksClaudePlugin, config)).rejects.toThrow()
    }
  })
})
