/*
 * Every GraphQL operation this adapter calls, as data: query id, feature switches, field toggles and the
 * variables the web client sends with it (the call's own ids and cursor are added in code). X rotates the
 * ids every few weeks and adds feature switches; `npx crawler platforms refresh twitter` re-derives them
 * from x.com's own bundle (bundle.ts) and an operator may patch one with CRAWLER_TWITTER_OPS. The service
 * merges those over these defaults per top-level key, so each operation is one key.
 *
 * Ids as of 2026-08: vladkens/twscrape api.py@9745b021d8 (2026-08-07) for the timeline, user and search
 * operations; FxEmbed queries.ts@85ba21c6e4 (2026-08-22) for TweetResultByRestId and ExplorePage. Feature
 * values: twscrape's GQL_FEATURES of the same commit (values read from x.com's page), user switches from
 * FxEmbed's rwebUserFeatureKeys.
 */

export interface OperationData {
  queryId: string;
  features?: Record<string, boolean>;
  fieldToggles?: Record<string, boolean>;
  /** The web client's fixed variables for this operation. */
  variables?: Record<string, unknown>;
}

/** The public bearer token of the web client (the same for every visitor; main.<hash>.js carries it). */
export const WEB_BEARER = 'AAAAAAAAAAAAAAAAAAAAANRILgAAAAAAnNwIzUejRCOuH5E6I8xnZz4puTs%3D1Zv7ttfk8LF81IUq16cHjhLTvJu4FA33AGWWjCpTnA';

const TWEET_FEATURES: Record<string, boolean> = {
  articles_preview_enabled: false,
  c9s_tweet_anatomy_moderator_badge_enabled: true,
  communities_web_enable_tweet_community_results_fetch: true,
  creator_subscriptions_quote_tweet_preview_enabled: false,
  creator_subscriptions_tweet_preview_api_enabled: true,
  freedom_of_speech_not_reach_fetch_enabled: true,
  graphql_is_translatable_rweb_tweet_is_translatable_enabled: true,
  longform_notetweets_consumption_enabled: true,
  longform_notetweets_inline_media_enabled: true,
  longform_notetweets_rich_text_read_enabled: true,
  responsive_web_edit_tweet_api_enabled: true,
  responsive_web_enhance_cards_enabled: false,
  responsive_web_graphql_exclude_directive_enabled: true,
  responsive_web_graphql_skip_user_profile_image_extensions_enabled: false,
  responsive_web_grok_community_note_auto_translation_is_enabled: false,
  responsive_web_graphql_timeline_navigation_enabled: true,
  responsive_web_grok_imagine_annotation_enabled: false,
  responsive_web_media_download_video_enabled: false,
  responsive_web_profile_redirect_enabled: true,
  responsive_web_twitter_article_tweet_consumption_enabled: true,
  rweb_tipjar_consumption_enabled: true,
  rweb_video_timestamps_enabled: true,
  standardized_nudges_misinfo: true,
  tweet_awards_web_tipping_enabled: false,
  tweet_with_visibility_results_prefer_gql_limited_actions_policy_enabled: true,
  tweet_with_visibility_results_prefer_gql_media_interstitial_enabled: false,
  tweetypie_unmention_optimization_enabled: true,
  verified_phone_label_enabled: false,
  view_counts_everywhere_api_enabled: true,
  responsive_web_grok_analyze_button_fetch_trends_enabled: false,
  premium_content_api_read_enabled: false,
  profile_label_improvements_pcf_label_in_post_enabled: false,
  responsive_web_grok_share_attachment_enabled: false,
  responsive_web_grok_analyze_post_followups_enabled: false,
  responsive_web_grok_image_annotation_enabled: false,
  responsive_web_grok_analysis_button_from_backend: false,
  responsive_web_jetfuel_frame: false,
  rweb_video_screen_enabled: true,
  responsive_web_grok_show_grok_translated_post: true,
};

const USER_FEATURES: Record<string, boolean> = {
  hidden_profile_subscriptions_enabled: true,
  profile_label_improvements_pcf_label_in_post_enabled: false,
  responsive_web_profile_redirect_enabled: true,
  rweb_tipjar_consumption_enabled: true,
  verified_phone_label_enabled: false,
  subscriptions_verification_info_is_identity_verified_enabled: false,
  subscriptions_verification_info_verified_since_enabled: true,
  highlights_tweets_tab_ui_enabled: true,
  responsive_web_twitter_article_notes_tab_enabled: false,
  subscriptions_feature_can_gift_premium: false,
  creator_subscriptions_tweet_preview_api_enabled: true,
  responsive_web_graphql_skip_user_profile_image_extensions_enabled: false,
  responsive_web_graphql_timeline_navigation_enabled: true,
};

const TWEET_TOGGLES = { withArticleRichContentState: true, withArticlePlainText: false, withGrokAnalyze: false, withDisallowedReplyControls: false };

/** The operations by name (the name is the URL's last segment and the key operators patch). */
export const OPERATIONS = {
  SearchTimeline: {
    queryId: 'BGd0T_j7oVwlW5U79tO_0A',
    features: TWEET_FEATURES,
    fieldToggles: { withArticleRichContentState: false },
    variables: { querySource: 'typed_query' },
  },
  UserTweets: {
    queryId: 'eoJ5zbv51Z_KVl81v9PmLQ',
    features: TWEET_FEATURES,
    variables: { includePromotedContent: true, withQuickPromoteEligibilityTweetFields: true, withVoice: true, withV2Timeline: true },
  },
  UserTweetsAndReplies: {
    queryId: 'wc5DRl4VaW5lSqJ8YbftZQ',
    features: TWEET_FEATURES,
    variables: { includePromotedContent: true, withCommunity: true, withVoice: true, withV2Timeline: true },
  },
  UserMedia: {
    queryId: '2DC9TKrcUzwGC_QskSVl5w',
    features: TWEET_FEATURES,
    fieldToggles: { withArticlePlainText: false },
    variables: { includePromotedContent: false, withClientEventToken: false, withBirdwatchNotes: false, withVoice: true, withV2Timeline: true },
  },
  CommunityTweetsTimeline: {
    queryId: 'dD1uF9vQx0OX-e1rKA4YLw',
    features: TWEET_FEATURES,
    variables: { displayLocation: 'Community', rankingMode: 'Recency', withCommunity: true, includePromotedContent: false, withQuickPromoteEligibilityTweetFields: true, withVoice: true, withV2Timeline: true },
  },
  UserByScreenName: {
    queryId: 'Gb-d6r0vxPOADdG62OEBpQ',
    features: USER_FEATURES,
    fieldToggles: { withAuxiliaryUserLabels: true },
    variables: { withSafetyModeUserFields: true },
  },
  UserByRestId: {
    queryId: 'xvmVfRLmnr1alc5f2dib0Q',
    features: USER_FEATURES,
    fieldToggles: { withAuxiliaryUserLabels: true },
    variables: { withSafetyModeUserFields: true },
  },
  AboutAccountQuery: {
    queryId: 'TzOG2twZEfhr9KmClvVVqA',
    features: { responsive_web_graphql_timeline_navigation_enabled: true },
  },
  TweetDetail: {
    queryId: '559hs_YZNV4IgA3Z6zIIuw',
    features: TWEET_FEATURES,
    fieldToggles: TWEET_TOGGLES,
    variables: { with_rux_injections: false, rankingMode: 'Relevance', includePromotedContent: true, withCommunity: true, withQuickPromoteEligibilityTweetFields: true, withBirdwatchNotes: true, withVoice: true, withV2Timeline: true },
  },
  TweetResultByRestId: {
    queryId: 'f2sagi1jweVHFkTUIHzmMQ',
    features: TWEET_FEATURES,
    fieldToggles: TWEET_TOGGLES,
    variables: { withCommunity: false, includePromotedContent: false, withVoice: false },
  },
  GenericTimelineById: {
    queryId: 'BrGScxnisMdTXyeLScaEhQ',
    features: TWEET_FEATURES,
    variables: { count: 20, withQuickPromoteEligibilityTweetFields: true },
  },
  ExplorePage: {
    queryId: 'gvPZTpBkahm30iCwpnszng',
    features: TWEET_FEATURES,
    variables: { cursor: '' },
  },
} satisfies Record<string, OperationData>;

export type OperationName = keyof typeof OPERATIONS;

/** The adapter's `ops.defaults`: the bearer token and one key per operation. */
export const DEFAULT_OPS: Record<string, unknown> = { bearer: WEB_BEARER, ...OPERATIONS };
