// C1 config: each field's default, a configured value taking effect, and rejected values failing at load.
import { describe, expect, it } from 'vitest'
import { HooksCodexConfig } from '../src/config.ts'

describe('config', () => {
  it('C1 defaults', () => {
    expect(HooksCodexConfig.parse({})).toEqual({
      sources: [],
      discover: true,
      assumeTrusted: false,
      trust: 'enforce',
      stderrSummaryMaxChars: 500,
      maxConsecutiveStopBlocks: 8,
      awaitSessionStart: true,
    })
  })

  it('C1 configured values are kept', () => {
    const config = HooksCodexConfig.parse({
      sources: ['a.json'],
      discover: false,
      codexHome: '/c',
      projectDir: '/p',
      dataDir: '/d',
      tackHome: '/th',
      transcriptDir: '/t',
      trust: 'off',
      stderrSummaryMaxChars: 20,
      maxConsecutiveStopBlocks: 2,
      awaitSessionStart: false,
      assumeTrusted: true,
    })
    expect(config).toMatchObject({
      assumeTrusted: true,
      codexHome: '/c',
      projectDir: '/p',
      dataDir: '/d',
      tackHome: '/th',
      transcriptDir: '/t',
      trust: 'off',
      stderrSummaryMaxChars: 20,
    })
  })

  it('C1 out-of-range and unknown values fail with the key named', () => {
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ stderrSummaryMaxChars: 0 }, 'stderrSummaryMaxChars'],
      [{ stderrSummaryMaxChars: 100_001 }, 'stderrSummaryMaxChars'],
      [{ maxConsecutiveStopBlocks: 0 }, 'maxConsecutiveStopBlocks'],
      [{ maxConsecutiveStopBlocks: 101 }, 'maxConsecutiveStopBlocks'],
      [{ trust: 'sometimes' }, 'trust'],
      [{ sources: 'a.json' }, 'sources'],
      [{ codexHome: '' }, 'codexHome'],
      [{ transcriptDir: '' }, 'transcriptDir'],
      [{ tackHome: '' }, 'tackHome'],
      [{ transcriptDir: 7 }, 'transcriptDir'],
      [{ timeout: 5 }, 'timeout: unknown key'],
    ]
    for (const [input, key] of bad) expect(() => HooksCodexConfig.parse(input)).toThrow(key)
  })
})
