import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../api';
import { ErrorMessage } from '../components/Field';
import { formatTime } from '../format';

export function FaceDetectPage() {
  const tasks = useQuery({
    queryKey: ['face-detect'],
    queryFn: () => ok(api.listFaceDetections()),
    refetchInterval: (query) => (query.state.data?.data.some((t) => t.status === 'queued' || t.status === 'processing') ? 2000 : false),
  });
  return (
    <>
      <h1>Face detection</h1>
      <ErrorMessage error={tasks.error} />
      {tasks.data && tasks.data.data.length === 0 && <p className="card empty">No face detections yet. Create one: POST /api/v1/face-detect.</p>}
      <div className="gallery">
        {tasks.data?.data.map((task) => {
          const faces = task.faces?.length ?? 0;
          return (
            <figure key={task.id} className="card detection">
              <img src={task.preview} alt={task.status === 'done' ? `Image with ${faces} detected faces outlined` : 'Image being searched for faces'} loading="lazy" />
              <figcaption>
                <span className={`badge badge-${task.status}`}>{task.status}</span>{' '}
                {task.status === 'done' && (
                  <strong>
                    {faces} {faces === 1 ? 'face' : 'faces'}
                  </strong>
                )}
                {task.error && <span className="error"> {task.error}</span>}
                <span className="muted mono small">{task.id}</span>
                <span className="muted small">{formatTime(task.created_at)}</span>
              </figcaption>
            </figure>
          );
        })}
      </div>
    </>
  );
}
