/*
 * The iOS app's request headers. Since 2025-05 the web hot list answers 401 to anonymous web clients; the
 * same request with the app's identity is still answered (baranwang/mcp-trends-hub src/tools/zhihu.ts, its
 * 1.6.2 fix for issue #14). The app's search_v3 on api.zhihu.com is asked the same way. Only unsigned app
 * endpoints use these; the web API keeps the guest's own User-Agent, which its d_c0 is bound to.
 */
export const APP_HEADERS: Readonly<Record<string, string>> = {
  'user-agent':
    'osee2unifiedRelease/22916 osee2unifiedReleaseVersion/10.49.0 Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  'x-app-versioncode': '22916',
  'x-app-bundleid': 'com.zhihu.ios',
  'x-app-build': 'release',
  // Sic: the app spells the header this way.
  'x-package-ytpe': 'appstore',
  'x-app-za': 'OS=iOS&Release=18.5&Model=iPhone17,2&VersionName=10.49.0&VersionCode=22916&Width=1290&Height=2796&DeviceType=Phone&Brand=Apple&OperatorType=6553565535',
};
