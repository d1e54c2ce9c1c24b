/*
 * GraphQL documents for www.kuaishou.com/graphql, written here from the field names the recordings
 * (fixtures/kuaishou/*-vision*.har) and MediaCrawler's documents (media_platform/kuaishou/graphql/*)
 * show. manifest/manifestH265/videoResource are JSON scalars on PhotoEntity; on the detail photo
 * manifest is an object type and needs a selection.
 */

const PHOTO_FIELDS = `id duration caption likeCount realLikeCount viewCount commentCount coverUrl photoUrl photoH265Url
      manifest manifestH265 videoResource timestamp videoRatio`;

const FEED_FIELDS = `type
    author { id name headerUrl }
    photo {
      ... on PhotoEntity { ${PHOTO_FIELDS} }
      ... on recoPhotoEntity { ${PHOTO_FIELDS} }
    }`;

export const QUERIES = {
  visionSearchPhoto: `query visionSearchPhoto($keyword: String, $pcursor: String, $searchSessionId: String, $page: String, $webPageArea: String) {
  visionSearchPhoto(keyword: $keyword, pcursor: $pcursor, searchSessionId: $searchSessionId, page: $page, webPageArea: $webPageArea) {
    result llsid pcursor searchSessionId
    feeds { ${FEED_FIELDS} }
  }
}`,

  visionProfilePhotoList: `query visionProfilePhotoList($pcursor: String, $userId: String, $page: String, $webPageArea: String) {
  visionProfilePhotoList(pcursor: $pcursor, userId: $userId, page: $page, webPageArea: $webPageArea) {
    result llsid pcursor
    feeds {
      type
      author { id name headerUrl }
      photo { ${PHOTO_FIELDS} }
    }
  }
}`,

  visionProfile: `query visionProfile($userId: String) {
  visionProfile(userId: $userId) {
    result
    userProfile {
      ownerCount { fan photo follow photo_public }
      profile { gender user_name user_id headurl user_text }
      isFollowing
    }
  }
}`,

  visionVideoDetail: `query visionVideoDetail($photoId: String, $type: String, $page: String, $webPageArea: String) {
  visionVideoDetail(photoId: $photoId, type: $type, page: $page, webPageArea: $webPageArea) {
    status type
    author { id name headerUrl }
    photo {
      id duration caption likeCount realLikeCount viewCount coverUrl photoUrl timestamp videoRatio
      manifest {
        adaptationSet {
          duration
          representation { url backupUrl codecs width height avgBitrate maxBitrate qualityType }
        }
      }
      manifestH265 photoH265Url videoResource
    }
  }
}`,

  commentListQuery: `query commentListQuery($photoId: String, $pcursor: String) {
  visionCommentList(photoId: $photoId, pcursor: $pcursor) {
    commentCount pcursor
    rootComments {
      commentId authorId authorName content headurl timestamp likedCount realLikedCount subCommentCount subCommentsPcursor
      subComments { commentId authorId authorName content headurl timestamp likedCount realLikedCount replyToUserName replyTo }
    }
  }
}`,

  // Declared as a mutation by the site (MediaCrawler graphql/vision_sub_comment_list.graphql).
  visionSubCommentList: `mutation visionSubCommentList($photoId: String, $rootCommentId: String, $pcursor: String) {
  visionSubCommentList(photoId: $photoId, rootCommentId: $rootCommentId, pcursor: $pcursor) {
    pcursor
    subComments { commentId authorId authorName content headurl timestamp likedCount realLikedCount replyToUserName replyTo }
  }
}`,

  visionProfileUserList: `query visionProfileUserList($pcursor: String, $ftype: Int) {
  visionProfileUserList(pcursor: $pcursor, ftype: $ftype) {
    result pcursor
  }
}`,
} as const;

export type Operation = keyof typeof QUERIES;

/** The operation's result field in `data` (the comment queries name theirs differently). */
export const RESULT_FIELD: Record<Operation, string> = {
  visionSearchPhoto: 'visionSearchPhoto',
  visionProfilePhotoList: 'visionProfilePhotoList',
  visionProfile: 'visionProfile',
  visionVideoDetail: 'visionVideoDetail',
  commentListQuery: 'visionCommentList',
  visionSubCommentList: 'visionSubCommentList',
  visionProfileUserList: 'visionProfileUserList',
};
