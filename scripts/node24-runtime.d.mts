export declare const NODE24_VERSION: string;
/** Node 24's binary, its version and the environment its processes need. */
export declare function node24(): { node: string; version: string; env: Record<string, string> };
