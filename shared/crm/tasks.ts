export { completeTaskById, createTask, deleteTask, listTasks, requireTask, updateTask } from '../data/tasks';
