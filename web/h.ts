/** An HTML element with its attributes and children (the page builds its cards with it). */
export function h(tag: string, attributes: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElement {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value)
  node.append(...children)
  return node
}
