import { BRANDS, type Brand } from '../brands';
import { TOKEN_PROPERTIES, type Palette, type ThemeName } from '../contract/tokens';

function declarations(palette: Palette): string {
  return (Object.keys(TOKEN_PROPERTIES) as Array<keyof Palette>)
    .map((key) => {
      const name = TOKEN_PROPERTIES[key];
      return `--_${name}:var(--acct-color-${name},${palette[key]});`;
    })
    .join('');
}

function rule(brand: Brand, theme: ThemeName, palette: Palette): string {
  return `.acct-root[data-brand="${brand.id}"][data-theme="${theme}"]{${declarations(palette)}}`;
}

/** The brand × theme rules: each sets the private variables, overridable by `--acct-color-*`. */
export function themeCss(): string {
  return Object.values(BRANDS)
    .flatMap((brand) => [
      rule(brand, 'light', brand.lightTheme),
      ...(brand.darkTheme ? [rule(brand, 'dark', brand.darkTheme)] : []),
    ])
    .join('\n');
}
