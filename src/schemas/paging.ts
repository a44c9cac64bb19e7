import Type, { type TArray, type TBoolean, type TInteger, type TSchema } from 'typebox'

/**
 * The page object of the console's lists: `{pagina, por_pagina, total, hay_mas, <items>}`. A list
 * that answered a bare array before the console keeps answering it without `pagina`; asked with
 * `pagina`, it answers this (so no existing client sees a different shape).
 */
export function PageOf<Key extends string, Item extends TSchema>(
  key: Key,
  item: Item,
  size: number,
  description: string,
) {
  const properties = {
    pagina: Type.Integer({ minimum: 1, description: 'La página pedida' }),
    por_pagina: Type.Integer({ minimum: size, maximum: size, description: 'Tamaño fijo de página' }),
    total: Type.Integer({ minimum: 0, description: 'Cuántos cumplen los filtros, en todas las páginas' }),
    hay_mas: Type.Boolean({ description: 'true: existe la página siguiente (pagina + 1)' }),
    [key]: Type.Array(item),
  } as { pagina: TInteger; por_pagina: TInteger; total: TInteger; hay_mas: TBoolean } & { [K in Key]: TArray<Item> }
  return Type.Object(properties, { description })
}

export interface PageRequest {
  page: number
  size: number
}

/** The offset and limit of a page (pages count from 1). */
export function pageWindow({ page, size }: PageRequest): { offset: number; limit: number } {
  return { offset: (page - 1) * size, limit: size }
}

/** The page object for `items` of page `page` out of `total` matching rows. */
export function pageAnswer<Key extends string, Item>(key: Key, items: Item[], request: PageRequest, total: number) {
  return {
    pagina: request.page,
    por_pagina: request.size,
    total,
    hay_mas: request.page * request.size < total,
    [key]: items,
  } as { pagina: number; por_pagina: number; total: number; hay_mas: boolean } & { [K in Key]: Item[] }
}

/**
 * Headers that tell a client whether a list that answers a bare array has a next page (the audit
 * log: its array answer predates the console).
 */
export function pagingHeaders(page: number, size: number, hasMore: boolean): Record<string, string> {
  return { 'X-Pagina': String(page), 'X-Por-Pagina': String(size), 'X-Hay-Mas': String(hasMore) }
}
