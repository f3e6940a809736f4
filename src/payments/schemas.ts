import { Type } from '@sinclair/typebox'

/** One x402 v2 offer (`PaymentRequirements`): what a payment must pay, to whom, on which network. */
export const PaymentRequirementsSchema = Type.Object(
  {
    scheme: Type.String(),
    network: Type.String(),
    amount: Type.String(),
    asset: Type.String(),
    payTo: Type.String(),
    maxTimeoutSeconds: Type.Number(),
  },
  { additionalProperties: true, description: 'One offer of a challenge (x402 PaymentRequirements)' },
)

/** The x402 v2 `PaymentRequired`: what an official client reads to sign a payment. */
export const PaymentRequiredSchema = Type.Object(
  {
    x402Version: Type.Literal(2),
    error: Type.Optional(Type.String()),
    resource: Type.Object(
      { url: Type.String(), description: Type.Optional(Type.String()), mimeType: Type.Optional(Type.String()) },
      { additionalProperties: true },
    ),
    accepts: Type.Array(PaymentRequirementsSchema),
  },
  { additionalProperties: true, description: 'x402 v2 PaymentRequired: sign one offer and repeat the call' },
)
