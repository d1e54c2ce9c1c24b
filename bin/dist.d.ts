export declare const ROOT: string;
export declare function distIsFresh(): boolean;
export declare function buildDist(): boolean;
