import { RPC_PROVIDER_NAMES } from '../../src/sources/rpc-providers.ts'
import { Type } from '@sinclair/typebox'
import { SchemaVersion } from '../../src/kernel/schemas.ts'

const ComponentState = Type.Union(
  [Type.Literal('unknown'), Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('down')],
  {
    description:
      'unknown until probed or seen answering; then from its last probe (one cheap real call every HEALTH_PROBE_INTERVAL_MS) and live traffic, the worse of the two (docs/operations.md)',
  },
)

const RoutesWhy = Type.Object({
  routes: Type.Array(Type.String({ description: '`<METHOD> <path>`' })),
  why: Type.String(),
})

export const HealthResponse = Type.Object({
  schema_version: SchemaVersion,
  status: Type.Union([Type.Literal('ok'), Type.Literal('unknown'), Type.Literal('degraded'), Type.Literal('down')], {
    description:
      'ok when every dependency is ok; unknown while one is not yet probed and none fails; degraded when one is degraded or down; down when the store is, or every upstream is (the process still answers 200)',
  }),
  version: Type.String({ description: 'Service version' }),
  uptime_s: Type.Number({ description: 'Seconds since the process started' }),
  sources: Type.Record(Type.String(), ComponentState, {
    description: 'State of each dependency: the store, every upstream source, the facilitator',
  }),
  probes: Type.Record(Type.String(), Type.String(), {
    description: "What each dependency's last probe found, in words (absent until its first probe)",
  }),
  rpc: Type.Optional(
    Type.Object(
      {
        provider: Type.Union(
          RPC_PROVIDER_NAMES.map((name) => Type.Literal(name)),
          { description: 'The provider whose limits calls are paced to (SOLANA_RPC_PROVIDER)' },
        ),
        refused: Type.Array(Type.String(), {
          description:
            'Methods the RPC refused (-32010: no secondary index for the key), learned at start-up and from its answers',
        }),
        holders_source: Type.Union([Type.Literal('rpc'), Type.Literal('token_list')], {
          description: 'Where holder concentration comes from with this RPC',
        }),
      },
      { description: 'The Solana RPC as the service found it (docs/data-layer.md); absent without SOLANA_RPC_URL' },
    ),
  ),
  routes_off: Type.Array(RoutesWhy, {
    description:
      'Catalogue routes not served (nor advertised) because their source is not configured, `why` naming the setting; empty when all are on',
  }),
  routes_failing: Type.Array(RoutesWhy, {
    description:
      'Routes served but failing now: a dependency they need is down (`why` names it and what its probe found); empty when none',
  }),
})

export const X402Manifest = Type.Object({
  schema_version: SchemaVersion,
  version: Type.Literal(1),
  resources: Type.Array(Type.String({ description: '`<METHOD> <path>` of a paid route' })),
  discovery: Type.Array(
    Type.Object({
      resource: Type.String({ description: '`<METHOD> <path>`' }),
      url: Type.String(),
      description: Type.String(),
      price: Type.String({ description: 'The price in words: `0.02 USD`, `0.015 USD per mint (1–50)`' }),
      price_usd: Type.String({ description: 'The price in USD; of one unit for a price per unit (`per_unit`)' }),
      per_unit: Type.Optional(
        Type.Object(
          {
            unit: Type.String({ description: 'What one unit of the request is (a mint scanned)' }),
            min_units: Type.Integer(),
            max_units: Type.Integer(),
          },
          {
            description:
              'A price per unit: a call costs price_usd × the units its request buys, named in its own 402 (docs/payments.md)',
          },
        ),
      ),
      offers: Type.Array(Type.Object({}, { additionalProperties: true }), {
        description:
          "The route's x402 offers (`network`, `asset`, `payTo`, and for a fixed price `amount` in USDC atomic units), as its 402 makes them",
      }),
      mcp_tool: Type.String({ description: 'The MCP tool that runs it (POST /mcp)' }),
      serviceName: Type.String(),
      tags: Type.Array(Type.String()),
      docs: Type.String({ description: "The route's page (/docs/routes/<name>.md)" }),
      schemas: Type.String({
        description: "The route's schemas and its Bazaar declaration in full (/docs/schemas/<name>.json)",
      }),
    }),
    {
      description:
        'Each paid route: price, offers and where its details are. Its 402 carries the Bazaar discovery extension itself.',
    },
  ),
  attestation: Type.Object(
    {
      alg: Type.Literal('Ed25519'),
      public_key: Type.String({ description: 'The attestation key’s public half, base58 (a Solana address)' }),
      header: Type.Literal('x-attestation', {
        description: 'The response header every paid 2xx answer carries: v1.<base64url payload>.<base64url signature>',
      }),
      docs: Type.String({ description: 'How to verify (docs/attestations.md)' }),
    },
    { description: 'How paid answers are attested: the key that signs them and where the signature travels' },
  ),
})

export const AgentCard = Type.Object({
  schema_version: SchemaVersion,
  name: Type.String(),
  description: Type.String(),
  url: Type.String(),
  version: Type.String(),
  capabilities: Type.Object({ streaming: Type.Literal(false), pushNotifications: Type.Literal(false) }),
  defaultInputModes: Type.Array(Type.Literal('application/json')),
  defaultOutputModes: Type.Array(Type.Literal('application/json')),
  skills: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      description: Type.String(),
      tags: Type.Array(Type.String()),
      examples: Type.Array(Type.String()),
    }),
  ),
})

/** The A2A agent card: its shape is the A2A protocol's (typed by `@a2a-js/sdk` where it is built). */
export const A2aAgentCard = Type.Object(
  {
    name: Type.String(),
    description: Type.String(),
    supportedInterfaces: Type.Array(Type.Object({}, { additionalProperties: true })),
    version: Type.String(),
    skills: Type.Array(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: true, description: 'A2A AgentCard (a2a-protocol.org, protocol version 1.0)' },
)

export const OpenApiDocument = Type.Object(
  {
    openapi: Type.String(),
    info: Type.Object({ title: Type.String(), version: Type.String() }),
    paths: Type.Object({}),
  },
  { additionalProperties: true, description: 'OpenAPI 3.1 description of every route' },
)

export const PlainText = Type.String()

/** A page's name under /docs/routes/ or /docs/schemas/: `scan-quick.md`, `scan-quick.json`. */
export const DocParams = (extension: 'md' | 'json') =>
  Type.Object({
    doc: Type.String({
      pattern: `^[A-Za-z0-9_-]+(\\.${extension})?$`,
      description: `The route's page name, .${extension} optional, any case (\`/scan/quick\` → \`scan-quick.${extension}\`)`,
    }),
  })

export const RouteSchemasDocument = Type.Object(
  {
    path: Type.String(),
    routes: Type.Array(Type.Object({ resource: Type.String(), url: Type.String() }, { additionalProperties: true })),
  },
  {
    additionalProperties: true,
    description: 'Each method of the path: price, offers, MCP tool, schemas, Bazaar declaration',
  },
)
