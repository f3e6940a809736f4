import { Type } from '@sinclair/typebox'
import { defineManifest } from '../../src/kernel/manifest.ts'
import { SchemaVersion } from '../../src/kernel/schemas.ts'
import { DataQuality, Grade, TokenRequest } from '../../src/pipeline/schemas.ts'

export const manifest = defineManifest({
  name: 'quick-grade',
  routes: {
    grade: {
      method: 'POST',
      path: '/example/quick-grade',
      summary: 'A token’s structural grade, in brief',
      description: 'The quick scan’s grade and score of a token, without its findings. Answers within 3 s.',
      price: { usd: '0.01' },
      body: TokenRequest,
      accounts: { token_address: 'token_mint' },
      response: Type.Object({
        schema_version: SchemaVersion,
        token_address: Type.String(),
        grade: Grade,
        score: Type.Integer({ minimum: 0, maximum: 100 }),
        data_quality: DataQuality,
      }),
      rateLimit: 'scanner',
      tags: ['scanners'],
      kind: 'scanner',
      deadlineMs: 2_500,
      requires: [{ source: 'solana', why: 'SOLANA_RPC_URL is not set: the quick grade reads the token on chain' }],
    },
  },
})
