/** "The interface as described corresponds to platform version 2.4.9." (spec, Versioning) */
export const SPEC_VERSION = '2.4.9'
