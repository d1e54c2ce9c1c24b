import type { DownloadAction } from '../../download/types.js';
import { postSlots } from '../instagram/download.js';
import { detailAction, readFocal } from './detail.js';
import { postToDraft } from './parse.js';

/*
 * A threads post's media. Threads answers with Instagram's media item (image_versions2, video_versions,
 * carousel_media, video_dash_manifest where present), so Instagram's reading of it serves: every carousel
 * item, every video rendition, every image candidate largest first. No watermark.
 */
export const downloadAction: DownloadAction = {
  shape: 'download',
  summary: 'A threads post\'s media: every carousel item, its video renditions (DASH video + audio where inlined), pictures at the largest candidate',
  params: detailAction.params,
  async resolve(ctx, params) {
    const focal = await readFocal(ctx, params);
    return { draft: postToDraft(focal), slots: postSlots(focal.raw) };
  },
};
