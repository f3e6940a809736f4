import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ChatCompletionSchema } from './llm.ts'

// Real chat completions as recorded (test/fixtures/recorded/llm/, each with its source).
const RECORDED = join(import.meta.dir, '..', '..', 'test', 'fixtures', 'recorded', 'llm')
const completions = readdirSync(RECORDED)
  .filter((name) => name.startsWith('chat-completion-'))
  .map((name) => [name, JSON.parse(readFileSync(join(RECORDED, name), 'utf8')).answer] as const)

describe('chat completions, recorded answers', () => {
  test.each(completions)('%s fits the schema the client reads', (_name, answer) => {
    expect(Value.Check(ChatCompletionSchema, answer)).toBe(true)
  })
  test('strict json_schema answers carry their JSON as a string, and usage', () => {
    const strict = completions.filter(([name]) => name.includes('json-schema-strict'))
    expect(strict.length).toBeGreaterThan(0)
    for (const [, answer] of strict) {
      expect(JSON.parse(answer.choices[0].message.content)).toBeObject()
      expect(answer.usage.completion_tokens).toBeGreaterThan(0)
    }
  })
})
