// ua-parser-js 1.x ships no types (the typed 2.x is AGPL): the little of it the server reads.
declare module 'ua-parser-js' {
  interface UAParserResult {
    browser: { name?: string; version?: string; major?: string };
    os: { name?: string; version?: string };
    device: { type?: string; vendor?: string; model?: string };
  }
  const UAParser: (userAgent: string) => UAParserResult;
  export default UAParser;
}
