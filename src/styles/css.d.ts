/** CSS files are imported as their (minified) text by the build and the test bundler. */
declare module '*.css' {
  const text: string;
  export default text;
}
