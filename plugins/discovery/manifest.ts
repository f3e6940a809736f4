import { defineManifest } from '../../src/kernel/manifest.ts'
import {
  A2aAgentCard,
  AgentCard,
  DocParams,
  HealthResponse,
  OpenApiDocument,
  PlainText,
  RouteSchemasDocument,
  X402Manifest,
} from './schemas.ts'

export const manifest = defineManifest({
  name: 'discovery',
  routes: {
    health: {
      method: 'GET',
      path: '/health',
      summary: 'Liveness and the state of each dependency',
      description: 'Answers 200 while the process serves requests; `sources` tells which dependencies are degraded.',
      price: 'free',
      response: HealthResponse,
      tags: ['discovery'],
    },
    x402: {
      method: 'GET',
      path: '/.well-known/x402',
      summary: 'x402 manifest: the paid resources',
      description:
        'Lists every paid route as `<METHOD> <path>` (`resources`), and under `discovery` each one with its URL, price, ' +
        'payment offers, MCP tool and links to its page and its schemas (`/docs/routes/<name>.md`, `/docs/schemas/<name>.json`).',
      price: 'free',
      response: X402Manifest,
      tags: ['discovery'],
    },
    agentCard: {
      method: 'GET',
      path: '/.well-known/agent.json',
      summary: 'Agent card',
      description: 'Name, capabilities and skills of this service for agent runtimes.',
      price: 'free',
      response: AgentCard,
      tags: ['discovery'],
    },
    a2aCard: {
      method: 'GET',
      path: '/.well-known/agent-card.json',
      summary: 'A2A agent card',
      description:
        'The agent card in the current A2A schema (protocol version 1.0): skills with input and output modes, and the ' +
        "service's interfaces: the A2A JSON-RPC binding at /a2a first (1.0 and 0.3), then its MCP server and its " +
        'OpenAPI-described HTTP API; the A2A x402 payments extension declared as required.',
      price: 'free',
      response: A2aAgentCard,
      tags: ['discovery'],
    },
    openapi: {
      method: 'GET',
      path: '/openapi.json',
      summary: 'OpenAPI 3.1 description',
      description:
        'Every route with its request and response schemas, error responses, and `x-payment-info` on paid routes. ' +
        'As the document describes the wire format itself, it carries the schema version as `x-schema-version`.',
      price: 'free',
      response: OpenApiDocument,
      tags: ['discovery'],
    },
    llmTxt: {
      method: 'GET',
      path: '/llm.txt',
      summary: 'Plain-text service catalogue for language models',
      description: 'Each endpoint with its price, input, output fields and the suggested call order.',
      price: 'free',
      response: PlainText,
      produces: 'text/plain',
      tags: ['discovery'],
    },
    llmsTxt: {
      method: 'GET',
      path: '/llms.txt',
      summary: 'llms.txt (llmstxt.org format)',
      description: 'A summary of the service and links to its descriptions and routes, in the llmstxt.org format.',
      price: 'free',
      response: PlainText,
      produces: 'text/markdown',
      tags: ['discovery'],
    },
    skill: {
      method: 'GET',
      path: '/skill.md',
      summary: 'Agent skill file',
      description:
        'A SKILL.md for agent runtimes: when to call which route, how payment works, how to read the answers ' +
        '(the repository ships it as skills/solsentry/SKILL.md).',
      price: 'free',
      response: PlainText,
      produces: 'text/markdown',
      tags: ['discovery'],
    },
    docs: {
      method: 'GET',
      path: '/docs',
      summary: 'Interactive API reference',
      description: 'An HTML page rendering /openapi.json with the Scalar viewer, served by the service (no CDN).',
      price: 'free',
      response: PlainText,
      produces: 'text/html',
      tags: ['discovery'],
    },
    routeDoc: {
      method: 'GET',
      path: '/docs/routes/:doc',
      summary: "A route's page",
      description:
        'One page per route path (`/scan/quick` → `/docs/routes/scan-quick.md`): what it does, its price and MCP tool, its ' +
        'input and output fields in full, its errors. /llm.txt, /llms.txt, /skill.md and /.well-known/x402 link here.',
      price: 'free',
      params: DocParams('md'),
      response: PlainText,
      produces: 'text/markdown',
      errors: ['NOT_FOUND'],
      tags: ['discovery'],
    },
    routeSchemas: {
      method: 'GET',
      path: '/docs/schemas/:doc',
      summary: "A route's schemas",
      description:
        'One document per route path (`/docs/schemas/scan-quick.json`): per method its price, payment offers, MCP tool, ' +
        'input and output JSON schemas, and (paid routes) the x402 Bazaar discovery declaration with the output schema in full.',
      price: 'free',
      params: DocParams('json'),
      response: RouteSchemasDocument,
      errors: ['NOT_FOUND'],
      tags: ['discovery'],
    },
    docsViewer: {
      method: 'GET',
      path: '/docs/viewer.js',
      summary: 'The API viewer script',
      description:
        "The Scalar API reference's browser bundle (@scalar/api-reference), served by the service so /docs works offline.",
      price: 'free',
      response: PlainText,
      produces: 'text/javascript',
      tags: ['discovery'],
    },
  },
})
