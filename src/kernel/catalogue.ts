/**
 * The one list every discovery document names: the routes offered to agents (every priced route, and
 * every route of a plugin that declares a skill), each with its MCP tool name, its agent-card skill and
 * the page that documents it. The MCP tools (plugins/mcp/tools.ts), both agent cards, /llms.txt, /llm.txt,
 * /skill.md, /.well-known/x402 and the generated tables of docs/mcp.md and docs/client.md all read it, so
 * they cannot disagree (test/discovery-lists.test.ts iterates the registry against each).
 */
import { priceInWords, type RegisteredRoute, type Registry, type SkillSpec } from './manifest.ts'

/** One route offered to agents. */
export interface Offering {
  route: RegisteredRoute
  /**
   * Its MCP tool: `sol_<name>`. A skill's route is named by the skill (`sol_` prefixed once), a skill with
   * several routes adding the route's name (`sol_trade_quote`); a route of no skill by its path
   * (`/exit/check` → `sol_exit_check`). The spec's names (`sol_quick_scan`, `sol_market_intel`,
   * `sol_deep_dive`, and `sol_trade`'s routes) are kept so.
   */
  tool: string
  /** Earlier names of the tool, still answered by tools/call and listed nowhere (deprecated). */
  aliases: string[]
  /** The agent-card skill it belongs to: its plugin's declared skill, or one derived for it (the tool's name). */
  skill: string
  /** Its page under /docs/routes/ (`scan-quick` → `/docs/routes/scan-quick.md`), shared by a path's methods. */
  doc: string
}

/** The routes offered to agents, in registration order. */
export function offerings(registry: Registry): Offering[] {
  const routes = registry.routes().filter(isOffered)
  const perSkill = new Map<string, number>()
  for (const route of routes) if (route.skill) perSkill.set(route.skill, (perSkill.get(route.skill) ?? 0) + 1)
  return routes.map((route) => {
    const single = route.skill !== undefined && perSkill.get(route.skill) === 1
    const tool = toolName(route, single)
    // Before the one naming rule, a one-route skill's tool was the bare skill id (`trending`).
    const aliases = single && route.skill !== tool ? [route.skill!] : []
    return { route, tool, aliases, skill: route.skill ?? tool, doc: routeDoc(route.path) }
  })
}

/** A route is offered to agents when it is priced or belongs to a declared skill. */
export function isOffered(route: RegisteredRoute): boolean {
  return route.skill !== undefined || route.price !== 'free'
}

function toolName(route: RegisteredRoute, single: boolean): string {
  if (!route.skill) return `sol_${route.path.slice(1).replaceAll(/[/-]/g, '_')}`
  const base = route.skill.replace(/^sol_/, '')
  return single ? `sol_${base}` : `sol_${base}_${route.name}`
}

/**
 * The name of a route's page under /docs/routes/: its path without parameters, leading dots or slashes,
 * its separators as dashes, lower case (`/trade/status/:job_id` → `trade-status`, `/` → `index`).
 */
export function routeDoc(path: string): string {
  const name = path
    .replace(/\/:[^/]+/g, '')
    .replace(/^[/.]+/, '')
    .replace(/[/.]+/g, '-')
    .toLowerCase()
  return name === '' ? 'index' : name
}

/**
 * The agent cards' skills: each skill declared by a mounted plugin, and one per offered route of no
 * skill (named as its tool), in the order of their first route; each description ends with its routes
 * and their prices, so a card names every paid route.
 */
export function cardSkills(registry: Registry): SkillSpec[] {
  const declared = new Map(registry.skills().map((skill) => [skill.id, skill]))
  const skills = new Map<string, SkillSpec & { routes: RegisteredRoute[] }>()
  for (const offering of offerings(registry)) {
    const { route } = offering
    const known = skills.get(offering.skill)
    if (known) {
      known.routes.push(route)
      continue
    }
    const skill = declared.get(offering.skill) ?? {
      id: offering.skill,
      name: route.summary,
      description: `${route.summary}. ${route.description}`,
      tags: [...new Set(['solana', ...route.tags])],
      examples: [],
    }
    skills.set(offering.skill, { ...skill, routes: [route] })
  }
  return [...skills.values()].map(({ routes, ...skill }) => ({
    ...skill,
    description: `${skill.description} Routes: ${routes.map((route) => `${route.key} (${priceInWords(route)})`).join('; ')}.`,
  }))
}
