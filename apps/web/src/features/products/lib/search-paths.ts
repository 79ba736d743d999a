/** Where a picked suggestion or a typed query leads: the results page, its choices in the URL. */
export function searchPathForWords(q: string): string {
  return `/search?q=${encodeURIComponent(q)}`;
}

export function searchPathForCategory(category: string): string {
  return `/search?category=${encodeURIComponent(category)}`;
}
