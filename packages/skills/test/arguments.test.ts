import { describe, expect, it } from 'vitest'
import { argumentWords, substituteArguments, substituteSkillDir } from '../src/arguments.ts'

describe('argument words (85-skills-and-commands.md C2)', () => {
  it('splits on blanks, groups quotes and removes them', () => {
    expect(argumentWords(`fix "the login bug" 'a b'  c`)).toEqual(['fix', 'the login bug', 'a b', 'c'])
    expect(argumentWords('a\\ b "x\\"y"')).toEqual(['a b', 'x"y'])
    expect(argumentWords('""')).toEqual([''])
    expect(argumentWords('   ')).toEqual([])
  })
  it('keeps the text of an unclosed quote', () => {
    expect(argumentWords(`one "two three`)).toEqual(['one', 'two three'])
  })
})

describe('substituting arguments (K4, C2)', () => {
  it('fills $ARGUMENTS with the raw text and $N / $ARGUMENTS[N] with 0-based words', () => {
    const body = 'All: $ARGUMENTS. First: $0. Second: $ARGUMENTS[1].'
    expect(substituteArguments(body, `123 "high priority"`)).toBe(
      'All: 123 "high priority". First: 123. Second: high priority.',
    )
  })
  it('leaves a placeholder past the last word as written', () => {
    expect(substituteArguments('a=$0 b=$1 c=$ARGUMENTS[5]', 'x')).toBe('a=x b=$1 c=$ARGUMENTS[5]')
  })
  it('appends ARGUMENTS: when the body has no placeholder, and not when it has one or there are none', () => {
    expect(substituteArguments('Review the code.\n', 'src/a.ts')).toBe(
      'Review the code.\n\nARGUMENTS: src/a.ts',
    )
    expect(substituteArguments('Review the code.', '')).toBe('Review the code.')
    expect(substituteArguments('Review $0.', 'a')).toBe('Review a.')
    expect(substituteArguments('Review.', 'a', { appendWhenUnused: false })).toBe('Review.')
  })
  it('does not take $ARGUMENTSX or $10 for $1', () => {
    expect(substituteArguments('$ARGUMENTSX $10 $1', 'a b')).toBe('$ARGUMENTSX $10 b')
  })
  it('fills the skill folder under both names', () => {
    const dir = (name: string) => `$${'{'}${name}}`
    expect(
      substituteSkillDir(`run ${dir('CLAUDE_SKILL_DIR')}/s.sh or ${dir('TACK_SKILL_DIR')}/t`, '/k'),
    ).toBe('run /k/s.sh or /k/t')
  })
})
