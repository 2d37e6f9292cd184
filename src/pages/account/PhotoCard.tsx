import { useRef, useState } from 'react';
import { Alert, Button, Chip, Stack, Typography } from '@mui/material';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import UploadOutlined from '@mui/icons-material/UploadOutlined';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'ra-core';
import { type User, photoBody } from '../../../resources/user-profile';
import { formatDate } from '../../generic/format';
import { PHOTO_ACCEPT, photoFileProblem, readAsDataUrl } from '../../generic/photoFile';
import { planName } from '../../generic/plans';
import { ProfileCard, SummaryRow } from '../../generic/ProfileCard';
import { errorMessage } from '../../generic/serverErrors';
import { useStackdeckData } from '../../hooks';

interface PhotoAnswer {
  user_id: number;
  data: string | null;
}

/** The photo (upload, replace, remove) and who this account is. */
export function PhotoCard({ user }: { user: User }) {
  const dataProvider = useStackdeckData();
  const queryClient = useQueryClient();
  const notify = useNotify();
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const key = ['users', 'photo', user.id];
  const { data: photo } = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => dataProvider.action<PhotoAnswer>('users', 'photo', { signal }),
  });

  const run = async (call: () => Promise<PhotoAnswer>, success: string) => {
    setBusy(true);
    try {
      queryClient.setQueryData(key, await call());
      // The record's `photo` field versions the photo; reloading it refreshes the header's copy.
      await queryClient.invalidateQueries({ queryKey: ['users', 'getOne'] });
      notify(success, { type: 'success' });
    } catch (error) {
      setProblem(errorMessage(error, 'The photo could not be saved.'));
    } finally {
      setBusy(false);
    }
  };

  const upload = async (file: File) => {
    const fileProblem = photoFileProblem(file);
    if (fileProblem) return setProblem(fileProblem);
    const body = { data: await readAsDataUrl(file) };
    const checked = photoBody.safeParse(body);
    if (!checked.success) return setProblem(checked.error.issues[0]?.message ?? 'Invalid photo');
    setProblem(null);
    await run(
      () => dataProvider.action<PhotoAnswer>('users', 'setPhoto', { body: checked.data }),
      'Photo updated',
    );
  };

  return (
    <ProfileCard
      label="Photo and account"
      user={user}
      photo={photo?.data}
      avatarSize="large"
      actions={
        <>
          <input
            ref={input}
            type="file"
            accept={PHOTO_ACCEPT}
            hidden
            aria-label="Photo file"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) void upload(file);
            }}
          />
          <Stack
            direction="row"
            spacing={1}
            useFlexGap
            sx={{
              flexWrap: 'wrap',
              justifyContent: 'center',
              '& .MuiButton-root': { whiteSpace: 'nowrap' },
            }}
          >
            <Button
              variant="outlined"
              size="small"
              startIcon={<UploadOutlined />}
              disabled={busy}
              onClick={() => input.current?.click()}
            >
              {photo?.data ? 'Change photo' : 'Upload photo'}
            </Button>
            {photo?.data ? (
              <Button
                size="small"
                color="error"
                startIcon={<DeleteOutline />}
                disabled={busy}
                onClick={() =>
                  void run(
                    () => dataProvider.action<PhotoAnswer>('users', 'deletePhoto'),
                    'Photo removed',
                  )
                }
              >
                Remove
              </Button>
            ) : null}
          </Stack>
          <Typography variant="caption" color="text.secondary">
            PNG, JPEG, WebP or GIF, up to 1 MB.
          </Typography>
          {problem ? (
            <Alert severity="error" onClose={() => setProblem(null)} sx={{ width: '100%' }}>
              {problem}
            </Alert>
          ) : null}
        </>
      }
    >
      <SummaryRow label="Plan">
        <Chip
          size="small"
          color="primary"
          variant="outlined"
          label={planName(user.plan_id, user.is_admin)}
        />
      </SummaryRow>
      <SummaryRow label="Member since">{formatDate(user.created_at)}</SummaryRow>
      <SummaryRow label="Account ID">#{user.id}</SummaryRow>
    </ProfileCard>
  );
}
