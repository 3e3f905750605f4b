/** A worker script's address, built beside the chunks by scripts/worker-url.mjs. */
declare module '*?worker-url' {
  const url: string;
  export default url;
}
